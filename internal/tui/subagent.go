package tui

import (
	"fmt"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/plural"
)

// Subagents show collapsed: while one runs, one line under its agent
// call says what it is doing (its latest tool call and how many it has
// made); when it ends, one line says how it ended. Its text and tool
// output stay out of the transcript — the parent's agent call shows its
// answer, and `synaps sessions show` the whole child transcript.

// kid is a subagent running.
type kid struct {
	id, typ, desc, parent string
	calls                 int
	last                  string // its latest tool call, summarised
	start                 time.Time
}

// kidEvent handles an event that comes from a subagent.
func (m *model) kidEvent(ev agent.Event) {
	switch ev.Type {
	case agent.EventSubagentStart:
		m.kids = append(m.kids, &kid{id: ev.Subagent.ID, typ: ev.Subagent.Type, desc: ev.Text, parent: ev.Subagent.ParentToolUseID, start: time.Now()})
	case agent.EventSubagentEnd:
		for i, k := range m.kids {
			if k.id != ev.Subagent.ID {
				continue
			}
			m.kids = append(m.kids[:i], m.kids[i+1:]...)
			how := m.st.ok.Render("done")
			if ev.Err != nil {
				how = m.st.bad.Render("stopped: " + oneLine(ev.Err.Error(), 100))
			}
			line := fmt.Sprintf("  ⎿ agent %s · %s · %s · %s tokens · %s · ", sanitize(k.typ), oneLine(k.desc, 40), plural.Count(k.calls, "tool call"),
				formatTokens(ev.Usage.InputTokens+ev.Usage.OutputTokens), formatDuration(time.Since(k.start).Truncate(100*time.Millisecond)))
			m.print(m.st.dim.Render(line) + how)
			break
		}
	case agent.EventToolStart:
		if k := m.kid(ev.Subagent.ID); k != nil {
			k.calls++
			k.last = ev.Tool.Name + " " + inputSummary(ev.Tool.Name, ev.Tool.Input)
		}
	case agent.EventTurnEnd:
		// The status line counts what children spend too.
		m.state.usage.InputTokens += ev.Usage.InputTokens
		m.state.usage.OutputTokens += ev.Usage.OutputTokens
	case agent.EventNotice:
		m.print(m.st.dim.Render("· agent " + sanitize(ev.Subagent.Type) + ": " + sanitize(ev.Text)))
	}
}

func (m *model) kid(id string) *kid {
	for _, k := range m.kids {
		if k.id == id {
			return k
		}
	}
	return nil
}

// kidLines are the live lines of the subagents started by the tool call
// callID.
func (m *model) kidLines(callID string, w int) []string {
	var out []string
	for _, k := range m.kids {
		if k.parent != callID {
			continue
		}
		doing := "thinking"
		if k.last != "" {
			doing = k.last
		}
		line := fmt.Sprintf("  ⎿ %s · %s · %s · %s", sanitize(k.typ), oneLine(k.desc, 40), plural.Count(k.calls, "tool call"), doing)
		out = append(out, fit(m.st.dim.Render(line), w))
	}
	return out
}
