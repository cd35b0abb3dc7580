package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
)

// A multiple-choice question a tool asks (agent.Chooser): the model's
// ask_user_question, and exit_plan_mode's "approve the plan?". Shown
// above the input as a list: ↑/↓ move, a digit or enter picks (space or a
// digit ticks when several may be picked), typed text is an answer of
// the user's own, esc stops the turn.

// choiceMsg asks the user a Choice; reply gets the answer.
type choiceMsg struct {
	c     agent.Choice
	reply chan<- agent.ChoiceAnswer
}

// choiceState is the open choice: the question, the cursor and the
// options ticked.
type choiceState struct {
	msg    choiceMsg
	cursor int
	ticked map[int]bool
}

// Choose is the agent.Chooser: it shows c and waits for the answer.
func (b *bridge) Choose(ctx context.Context, c agent.Choice) agent.ChoiceAnswer {
	reply := make(chan agent.ChoiceAnswer, 1)
	b.send(choiceMsg{c: c, reply: reply})
	select {
	case ans := <-reply:
		return ans
	case <-ctx.Done():
		return agent.ChoiceAnswer{Dismissed: true}
	case <-b.done:
		return agent.ChoiceAnswer{Dismissed: true}
	}
}

var _ agent.Chooser = (*bridge)(nil)

// openChoice shows msg: a plan goes to the transcript first, whole,
// where it stays to be read back.
func (m *model) openChoice(msg choiceMsg) {
	if msg.c.Body != "" {
		body := msg.c.Body
		m.print(m.st.warn.Render("● " + msg.c.Header + ":"))
		m.printW(func(w int) string { return m.md.render(sanitize(body), w-2) })
	}
	m.choice = &choiceState{msg: msg, ticked: map[int]bool{}}
	m.ask(promptChoice)
	m.input.Placeholder = "↑/↓ and enter, or a number · or type your own answer"
}

// choiceKey handles the keys the open choice takes; ok false leaves k to
// the input (typing an answer of one's own).
func (m *model) choiceKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	cs := m.choice
	n := len(cs.msg.c.Options)
	empty := m.input.Value() == ""
	switch s := k.String(); {
	case s == "up":
		cs.cursor = (cs.cursor + n - 1) % n
	case s == "down":
		cs.cursor = (cs.cursor + 1) % n
	case (s == "space" || s == " ") && empty && cs.msg.c.Multi:
		cs.ticked[cs.cursor] = !cs.ticked[cs.cursor]
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && empty:
		i := int(s[0] - '1')
		if i >= n {
			return nil, true
		}
		cs.cursor = i
		if cs.msg.c.Multi {
			cs.ticked[i] = !cs.ticked[i]
			return nil, true
		}
		m.answerChoice(agent.ChoiceAnswer{Picked: []int{i}})
	case s == "esc" || s == "ctrl+c":
		m.answerChoice(agent.ChoiceAnswer{Dismissed: true})
		m.interrupt()
	default:
		return nil, false
	}
	return nil, true
}

// submitChoice is enter at the open choice: typed text is the user's own
// answer (with what is ticked); else what is ticked, or the option under
// the cursor.
func (m *model) submitChoice() {
	cs := m.choice
	var ans agent.ChoiceAnswer
	for i := range cs.msg.c.Options {
		if cs.ticked[i] {
			ans.Picked = append(ans.Picked, i)
		}
	}
	ans.Other = strings.TrimSpace(m.input.Value())
	if ans.Other == "" && len(ans.Picked) == 0 {
		ans.Picked = []int{cs.cursor}
	}
	m.answerChoice(ans)
}

// answerChoice sends ans, closes the question and says in the transcript
// what was answered.
func (m *model) answerChoice(ans agent.ChoiceAnswer) {
	cs := m.choice
	m.choice = nil
	m.endAsk()
	if cs == nil {
		return
	}
	cs.msg.reply <- ans // buffered: never blocks
	said := m.st.bad.Render("no answer (esc)")
	if !ans.Dismissed {
		var parts []string
		for _, i := range ans.Picked {
			parts = append(parts, cs.msg.c.Options[i].Label)
		}
		if ans.Other != "" {
			parts = append(parts, strconv.Quote(ans.Other))
		}
		said = m.st.ok.Render(strings.Join(parts, ", "))
	}
	m.print(m.st.warn.Render("? ") + oneLine(cs.msg.c.Question, 200) + " " + said)
}

// choiceLines is the open choice as shown above the input, wrapped to w.
func (m *model) choiceLines(w int) []string {
	cs := m.choice
	c := cs.msg.c
	var q []string
	add := func(s string) { q = append(q, wrapLine(s, w)...) }
	head := c.Question
	if c.Header != "" {
		head = "[" + c.Header + "] " + head
	}
	if c.Agent != "" {
		head = c.Agent + ": " + head
	}
	add(m.st.warn.Render("? " + oneLine(head, 400)))
	for i, o := range c.Options {
		mark := "  "
		if i == cs.cursor {
			mark = "› "
		}
		box := ""
		if c.Multi {
			box = "[ ] "
			if cs.ticked[i] {
				box = "[x] "
			}
		}
		line := fmt.Sprintf("%s%d. %s%s", mark, i+1, box, oneLine(o.Label, 200))
		if i == cs.cursor {
			line = m.st.ok.Render(line)
		}
		if o.Description != "" {
			line += m.st.dim.Render(" — " + oneLine(o.Description, 300))
		}
		add(line)
	}
	hint := "enter picks · a number picks · type your own answer · esc stops"
	if c.Multi {
		hint = "space or a number ticks · enter sends · type your own answer · esc stops"
	}
	add(m.st.dim.Render(hint))
	return q
}
