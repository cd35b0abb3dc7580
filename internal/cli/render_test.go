package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/agent"
)

// Calls that ran side by side end in any order; a call that ends after
// another started repeats its start line, so each result sits under its
// own call.
func TestRenderInterleavedCalls(t *testing.T) {
	var out strings.Builder
	r := &renderer{out: &out}
	a := &agent.ToolCall{ID: "a", Name: "read", Input: []byte(`{"path":"a.txt"}`), InputRequested: []byte(`{"path":"a.txt"}`)}
	b := &agent.ToolCall{ID: "b", Name: "read", Input: []byte(`{"path":"b.txt"}`), InputRequested: []byte(`{"path":"b.txt"}`)}
	r.event(agent.Event{Type: agent.EventToolStart, Tool: a})
	r.event(agent.Event{Type: agent.EventToolStart, Tool: b})
	b.Output = "bee"
	r.event(agent.Event{Type: agent.EventToolEnd, Tool: b})
	a.Output = "ay"
	r.event(agent.Event{Type: agent.EventToolEnd, Tool: a})
	want := []string{"● read a.txt", "● read b.txt", "  ⎿ bee", "    (0s)", "● read a.txt", "  ⎿ ay", "    (0s)", ""}
	if d := cmp.Diff(want, strings.Split(out.String(), "\n")); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}
