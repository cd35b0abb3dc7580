package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/checkpoint"
)

// /rewind and Esc Esc on an empty input (Claude Code's checkpoints): a
// list of the earlier prompts, then what to restore, both asked with the
// multiple-choice question (choice.go); the answer runs
// `/rewind N both|code|conversation` (app/checkpoints.go). A rewound
// conversation puts its prompt back in the input, to edit and send again.

// escEscWindow is how soon a second Esc on an empty idle input opens
// /rewind.
const escEscWindow = 800 * time.Millisecond

// rewindMsg is an answer of the rewind questions: step 1 picked the
// prompt, step 2 what to restore.
type rewindMsg struct {
	step   int
	ans    agent.ChoiceAnswer
	points []checkpoint.Point
	n      int // the prompt picked (index), for step 2
}

// rewindWhat are step 2's answers and the /rewind word of each.
var rewindWhat = []struct{ label, word string }{
	{"Restore code and conversation", "both"},
	{"Restore conversation", "conversation"},
	{"Restore code", "code"},
	{"Never mind", ""},
}

// escIdle is Esc on an empty idle input: the second within escEscWindow
// opens /rewind.
func (m *model) escIdle() tea.Cmd {
	now := time.Now()
	if !m.escAt.IsZero() && now.Sub(m.escAt) < escEscWindow {
		m.escAt = time.Time{}
		return m.openRewind()
	}
	m.escAt = now
	return nil
}

// openRewind asks which prompt to go back to before.
func (m *model) openRewind() tea.Cmd {
	if m.app == nil || m.busy != "" || m.asking != promptNone {
		return nil
	}
	points := m.app.Checkpoints()
	if len(points) == 0 {
		m.print(m.st.dim.Render("· no checkpoints yet: each prompt you send makes one"))
		return nil
	}
	opts := make([]agent.ChoiceOption, len(points))
	for i, p := range points {
		first, _, _ := strings.Cut(strings.TrimSpace(p.Prompt), "\n")
		desc := fmt.Sprintf("%s · %d file(s) changed after", p.Time.Format("15:04:05"), len(p.Files))
		if n := p.NotRestorable(); n > 0 {
			desc += fmt.Sprintf(" (%d not restorable)", n)
		}
		opts[i] = agent.ChoiceOption{Label: oneLine(first, 60), Description: desc}
	}
	return m.askRewind(agent.Choice{Header: "Rewind", Question: "Go back to before which prompt?", Options: opts}, len(opts)-1,
		func(ans agent.ChoiceAnswer) tea.Msg { return rewindMsg{step: 1, ans: ans, points: points} })
}

// askRewind opens c with the cursor at cursor; done makes the message
// its answer is delivered in.
func (m *model) askRewind(c agent.Choice, cursor int, done func(agent.ChoiceAnswer) tea.Msg) tea.Cmd {
	reply := make(chan agent.ChoiceAnswer, 1)
	m.openChoice(choiceMsg{c: c, reply: reply})
	m.choice.cursor = cursor
	return func() tea.Msg { return done(<-reply) }
}

// rewindStep goes on with an answer.
func (m *model) rewindStep(msg rewindMsg) tea.Cmd {
	if msg.ans.Dismissed || len(msg.ans.Picked) != 1 {
		return nil
	}
	i := msg.ans.Picked[0]
	if msg.step == 1 {
		opts := make([]agent.ChoiceOption, len(rewindWhat))
		for k, w := range rewindWhat {
			opts[k].Label = w.label
		}
		p := msg.points[i]
		opts[0].Description = "the files as they were, and the conversation before it"
		opts[2].Description = fmt.Sprintf("%d file(s) recorded from here on", countFiles(msg.points[i:]))
		return m.askRewind(agent.Choice{Header: "Rewind", Question: fmt.Sprintf("Rewind to before %q?", oneLine(p.Prompt, 60)), Options: opts}, 0,
			func(ans agent.ChoiceAnswer) tea.Msg { return rewindMsg{step: 2, ans: ans, points: msg.points, n: i} })
	}
	word := rewindWhat[i].word
	if word == "" {
		return nil
	}
	cmd := m.run(fmt.Sprintf("/rewind %d %s", msg.n+1, word))
	if word != "code" {
		m.input.SetValue(msg.points[msg.n].Prompt) // to edit and send again
	}
	return cmd
}

func countFiles(points []checkpoint.Point) int {
	n := 0
	for _, p := range points {
		n += len(p.Files)
	}
	return n
}
