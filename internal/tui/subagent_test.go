package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
)

// A subagent shows collapsed: while it runs, one line under the agent
// call says what it is doing; when it ends, one line says how; its own
// tool calls and text are not transcript entries of their own. A resumed
// session shows each earlier child as one line under its agent call.
func TestModelSubagentCollapsed(t *testing.T) {
	h := newHarness(t, `{"text":"Delegating.","tool_calls":[{"name":"agent","input":{"description":"count files","prompt":"count the files"}}]}
{"tool_calls":[{"name":"bash","input":{"command":"echo kid-output"}}]}
{"text":"There are 3 files."}
{"text":"The agent counted 3."}
`)
	h.typeText("count them")
	h.press(tea.KeyEnter, 0)
	h.until("the child's tool call", func(msg tea.Msg) bool {
		em, ok := msg.(eventMsg)
		return ok && em.ev.Subagent != nil && em.ev.Type == agent.EventToolStart
	})
	if v := h.view(); !strings.Contains(v, "⎿ general-purpose · count files · 1 tool call · bash echo kid-output") {
		t.Errorf("the running child has no line under its agent call:\n%s", v)
	}
	h.until("the turn", isWorkDone)
	got := h.transcript()
	for _, want := range []string{"⎿ agent general-purpose · count files · 1 tool call · ", "done", "The agent counted 3."} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "│ kid-output") || strings.Contains(got, "✓ bash") {
		t.Errorf("the child's tool call is in the transcript, not collapsed:\n%s", got)
	}

	old := h.m.app.Session.ID
	h.typeText("/clear")
	h.press(tea.KeyEnter, 0)
	h.until("/clear", isWorkDone)
	h.m.entries, h.m.printed = nil, 0
	h.typeText("/resume " + old)
	h.press(tea.KeyEnter, 0)
	h.until("/resume", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "⎿ agent general-purpose (a") || !strings.Contains(got, "· count files · 4 messages ·") {
		t.Errorf("the resumed transcript does not show the child under its agent call:\n%s", got)
	}
}
