package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/llm"
)

// Steered text passes before_message like any message: a guard's block
// keeps it from the model (a notice says so), an inject goes with it,
// marked. It joins after the tool results of the turn's first call, in
// the same user message, and the turn is not restarted: the scripted
// model has two answers, and its second request checks the text.
func TestSteerPassesBeforeMessage(t *testing.T) {
	base := t.TempDir()
	exttest.Plugin(t, base, "words", map[string]any{
		"permissions": []string{"privacy.llm_content"},
		"hooks":       []map[string]any{{"hook": "before_message"}},
	}, exttest.Spec{Rules: []exttest.Rule{
		{Hook: "before_message", MessageContains: "password", Result: json.RawMessage(`{"action":"block","reason":"no secrets"}`)},
		{Hook: "before_message", MessageContains: "deploy", Result: json.RawMessage(`{"action":"inject","content":"PROD-IS-FROZEN"}`)},
	}})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"echo one"}}]}
{"text":"Noted.","expect":{"last_user_contains":"also deploy"}}
`, nil)
	// Sent before the turn's first request is answered: both wait for
	// the turn's next request.
	r.agent.Steer("my password is hunter2")
	r.agent.Steer("also deploy")
	if err := r.agent.Send(context.Background(), "start"); err != nil {
		t.Fatal(err)
	}
	msgs := r.sess.Messages()
	if len(msgs) != 4 {
		t.Fatalf("%d messages, want 4", len(msgs))
	}
	want := []llm.Block{
		{Type: llm.BlockToolResult, ToolUseID: "toolu_script_1_1", Content: "one\n"},
		{Type: llm.BlockText, Text: "also deploy"},
	}
	got := msgs[2].Content
	if diff := cmp.Diff(want, got[:min(2, len(got))]); diff != "" {
		t.Errorf("the message after the tool call (-want +got):\n%s", diff)
	}
	if len(got) != 3 || !got[2].Inject || !strings.Contains(got[2].Text, "PROD-IS-FROZEN") {
		t.Errorf("the inject after the steered text: %+v", got[2:])
	}
	var said []string
	for _, e := range r.events {
		switch e.Type {
		case EventSteer:
			said = append(said, "steer: "+e.Text)
		case EventNotice:
			said = append(said, "notice: "+e.Text)
		case EventInject:
			said = append(said, "inject: "+e.Text+" in "+e.Where)
		}
	}
	wantSaid := []string{"notice: steered text not sent: words blocked it: no secrets", "inject: words in user", "steer: also deploy"}
	if diff := cmp.Diff(wantSaid, said); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if left := r.agent.TakeSteers(); len(left) != 0 {
		t.Errorf("steering left after the turn: %q", left)
	}
}
