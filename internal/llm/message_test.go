package llm

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The JSON of Message is the persisted session format; this pins it.
func TestMessageJSON(t *testing.T) {
	m := Message{Role: RoleAssistant, Content: []Block{
		{Type: BlockThinking, Thinking: "hmm", Signature: "sig"},
		{Type: BlockText, Text: "Running it."},
		{Type: BlockToolUse, ID: "toolu_1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)},
		{Type: BlockToolResult, ToolUseID: "toolu_1", Content: "a.txt", IsError: true},
		{Type: BlockRedactedThinking, Data: "opaque"},
	}}
	const want = `{"role":"assistant","content":[` +
		`{"type":"thinking","thinking":"hmm","signature":"sig"},` +
		`{"type":"text","text":"Running it."},` +
		`{"type":"tool_use","id":"toolu_1","name":"bash","input":{"command":"ls"}},` +
		`{"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt","is_error":true},` +
		`{"type":"redacted_thinking","data":"opaque"}]}`
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("JSON =\n  %s\nwant\n  %s", got, want)
	}
	var back Message
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, back); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
}

func TestMessageText(t *testing.T) {
	m := Message{Content: []Block{{Type: BlockText, Text: "a"}, {Type: BlockToolUse, Name: "x"}, {Type: BlockText, Text: "b"}}}
	if got := m.Text(); got != "ab" {
		t.Errorf("Text() = %q", got)
	}
	if got := m.ToolUses(); len(got) != 1 || got[0].Name != "x" {
		t.Errorf("ToolUses() = %+v", got)
	}
}
