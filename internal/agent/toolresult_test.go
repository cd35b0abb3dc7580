package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// An extension tool's output is cut to the built-ins' cap before any hook
// sees it, so a redactor sees all of what the model gets: a 4 MB output
// with secrets in it never reaches the model whole or unredacted.
func TestExtensionToolOutputCappedBeforeRedactor(t *testing.T) {
	base := t.TempDir()
	const word = "SECRET-"
	n := 4 << 20
	out := strings.Repeat("a", n/2) + word + "middle" + strings.Repeat("b", n/2-200) + word + "tail" + strings.Repeat("c", 100)
	res, _ := json.Marshal(map[string]string{"output": out})
	exttest.Plugin(t, base, "big", map[string]any{"permissions": []string{"tools.register"}}, exttest.Spec{
		Init:    json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"dump","description":"dumps","input_schema":{"type":"object"}}]}}`),
		Results: map[string]json.RawMessage{"tool:dump": res},
	})
	redactor := exttest.Plugin(t, base, "redactor", map[string]any{
		"permissions": []string{"tools.intercept", "tools.transform_output"},
		"hooks":       []map[string]any{{"hook": "after_tool_call"}},
	}, exttest.Spec{Modes: map[string]string{"hook:after_tool_call": "redact:" + word}, Record: true})

	r := newRig(t, base, `{"tool_calls":[{"name":"big_dump","input":{}}]}
{"text":"read it"}
{"text":"still here"}
`, nil)
	ctx := context.Background()
	for _, msg := range []string{"dump it", "again"} {
		if err := r.agent.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	results := r.toolResults()
	if len(results) != 1 {
		t.Fatalf("tool results: %d", len(results))
	}
	got := results[0].Content
	if len(got) > tool.DefaultMaxOutput+tool.OutputNoteSlack {
		t.Errorf("the model got %d bytes of tool output; the cap is %d", len(got), tool.DefaultMaxOutput)
	}
	for i, req := range r.model.reqs {
		b, _ := json.Marshal(req.Messages)
		if strings.Contains(string(b), word) {
			t.Errorf("request %d reached the model with a secret in it", i+1)
		}
	}
	// What the redactor saw, redacted, is exactly what the model got.
	var seen []string
	for _, ev := range exttest.ReadRecord(t, filepath.Clean(redactor)) {
		if ev["kind"] == contract.HookAfterToolCall {
			s, _ := ev["tool_output"].(string)
			seen = append(seen, strings.ReplaceAll(s, word, "[REDACTED]"))
		}
	}
	if diff := cmp.Diff([]string{got}, seen); diff != "" {
		t.Errorf("the redactor's view, redacted, differs from the model's (-model +redactor):\n%.2000s", diff)
	}
	if !strings.Contains(got, "[REDACTED]tail") || !strings.Contains(got, "bytes truncated]") {
		t.Errorf("the tail secret was not redacted or the cut not marked: …%s", got[len(got)-300:])
	}
}

// Every hook sees a capped result whole: the cap, with its notes, fits in
// what a hook event carries.
func TestToolOutputCapFitsHookEvent(t *testing.T) {
	if tool.DefaultMaxOutput+tool.OutputNoteSlack > contract.MaxToolOutputHook {
		t.Errorf("a capped result (%d bytes) is longer than a hook event's tool_output (%d)", tool.DefaultMaxOutput+tool.OutputNoteSlack, contract.MaxToolOutputHook)
	}
}

// A guard's block reason is a tool result too, and is capped like one.
func TestBlockReasonCapped(t *testing.T) {
	base := t.TempDir()
	reason, _ := json.Marshal(map[string]string{"action": "block", "reason": strings.Repeat("no ", 1<<20)})
	guardPlugin(t, base, "guard", []string{"tools.intercept"},
		[]map[string]any{{"hook": "before_tool_call", "tool": "bash"}},
		map[string]string{"hook:before_tool_call": string(reason)})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}
{"text":"ok"}
`, nil)
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	res := r.toolResults()
	if len(res) != 1 || !res[0].IsError || !strings.HasPrefix(res[0].Content, "Tool call blocked by extension guard: no no") {
		t.Fatalf("tool results = %.300v", res)
	}
	if n := len(res[0].Content); n > tool.DefaultMaxOutput+tool.OutputNoteSlack {
		t.Errorf("the block reason reached the model with %d bytes; the cap is %d", n, tool.DefaultMaxOutput)
	}
}

// A replacement is a tool result too: an after_tool_call hook that answers
// with 500 KB does not send the model more than the cap the session keeps.
func TestReplacementCapped(t *testing.T) {
	base := t.TempDir()
	repl, _ := json.Marshal(map[string]string{"action": "replace", "output": strings.Repeat("r", 500<<10) + "END"})
	exttest.Plugin(t, base, "rewriter", map[string]any{
		"permissions": []string{"tools.intercept", "tools.transform_output"},
		"hooks":       []map[string]any{{"hook": "after_tool_call"}},
	}, exttest.Spec{Results: map[string]json.RawMessage{"hook:after_tool_call": repl}})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}
{"text":"ok"}
`, nil)
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	// What the model was sent, not what the session kept.
	var res []llm.Block
	for _, m := range r.model.reqs[len(r.model.reqs)-1].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				res = append(res, b)
			}
		}
	}
	if len(res) != 1 || !strings.HasPrefix(res[0].Content, "rrrr") {
		t.Fatalf("tool results = %.300v", res)
	}
	if n := len(res[0].Content); n > tool.DefaultMaxOutput+tool.OutputNoteSlack {
		t.Errorf("the replacement reached the model with %d bytes; the cap is %d", n, tool.DefaultMaxOutput)
	}
	if !strings.HasSuffix(res[0].Content, "END") || !strings.Contains(res[0].Content, "bytes truncated]") {
		t.Errorf("the cut keeps the head and tail and says so: …%s", res[0].Content[len(res[0].Content)-200:])
	}
}
