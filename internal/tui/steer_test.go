package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/llm"
)

// TestModelSteersTheRunningTurn: words sent while a tool call runs join
// the turn at its next model request, after the tool's result — the
// scripted model checks that request — and the turn is not restarted
// (the script has two answers only). The transcript shows them marked
// steered; until then they show above the input (issue 24, item 3).
func TestModelSteersTheRunningTurn(t *testing.T) {
	h := newHarness(t, `{"tool_calls":[{"name":"bash","input":{"command":"while [ ! -e go ]; do sleep 0.01; done; echo waited"}}]}
{"text":"took your note","expect":{"last_user_contains":"also check the tests","last_tool_result_contains":"waited"}}
`)
	h.typeText("start")
	h.press(tea.KeyEnter, 0)
	h.until("the tool call to start", func(msg tea.Msg) bool {
		em, ok := msg.(eventMsg)
		return ok && em.ev.Type == agent.EventToolStart
	})
	h.typeText("also check the tests")
	h.press(tea.KeyEnter, 0)
	if v := h.view(); !strings.Contains(v, "queued › also check the tests · joins the turn at its next step") {
		t.Errorf("steering not shown above the input:\n%s", v)
	}
	if err := os.WriteFile(filepath.Join(h.m.app.WorkDir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.until("the turn to end", isWorkDone)
	got := h.transcript()
	if !strings.Contains(got, "› also check the tests  · steered into the turn") || !strings.Contains(got, "took your note") {
		t.Errorf("transcript:\n%s", got)
	}
	if strings.Contains(got, "error") {
		t.Errorf("the turn failed:\n%s", got)
	}
	if h.m.busy != "" || len(h.m.queue) > 0 || len(h.m.steering) > 0 {
		t.Errorf("after the turn: busy %q, queue %q, steering %q", h.m.busy, h.m.queue, h.m.steering)
	}
	msgs := h.m.app.Session.Messages()
	if len(msgs) != 4 {
		t.Fatalf("%d messages, want 4: prompt, tool call, result + steering, answer", len(msgs))
	}
	last := msgs[2].Content
	if len(last) != 2 || last[0].Type != llm.BlockToolResult || last[1].Text != "also check the tests" {
		t.Errorf("third message = %+v; want the tool result, then the steered text", last)
	}
}
