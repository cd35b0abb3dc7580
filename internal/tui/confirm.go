package tui

import (
	"strings"

	"github.com/synaps-cli/synaps/internal/agent"
)

// prompt is a question the input answers instead of sending a message.
type prompt int

const (
	promptNone    prompt = iota
	promptConfirm        // a tool call waits for [y/N]
	promptTrust          // the trust dialog (trustdialog.go)
	promptChoice         // a tool's multiple-choice question (choice.go)
)

// confirmAnswer reads the answer to a confirm: y or yes runs the call,
// a or always (when offered) runs it and saves the rule, anything else
// does not run it.
func confirmAnswer(s string, alwaysOffered bool) agent.Answer {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes":
		return agent.AnswerYes
	case "a", "always":
		if alwaysOffered {
			return agent.AnswerAlways
		}
	}
	return agent.AnswerNo
}

// ask opens a question, putting the input aside.
func (m *model) ask(p prompt) {
	if m.asking == promptNone {
		m.draft = m.input.Value()
	}
	m.asking = p
	m.input.Reset()
	m.input.Placeholder = "y or n, then enter"
	if p == promptConfirm && m.confirm != nil && m.confirm.always != "" {
		// Every answer the question offers, as its [y/N/a …] says.
		m.input.Placeholder = "y, n or a (always), then enter"
	}
}

// endAsk closes the question and gives the input back.
func (m *model) endAsk() {
	m.asking = promptNone
	m.input.Placeholder = placeholder
	m.input.SetValue(m.draft)
	m.draft = ""
}

func (m *model) answerConfirm(ans agent.Answer) {
	c := m.confirm
	m.confirm = nil
	m.endAsk()
	if c == nil {
		return
	}
	c.reply <- ans // buffered: never blocks
	verdict := m.st.bad.Render("denied")
	switch ans {
	case agent.AnswerYes:
		verdict = m.st.ok.Render("allowed")
	case agent.AnswerAlways:
		verdict = m.st.ok.Render("allowed, always: " + c.always)
	}
	for _, cm := range c.messages {
		m.print(m.st.warn.Render("? "+cm.Extension+": ") + oneLine(cm.Message, 200))
	}
	m.print("  " + c.tool + " " + verdict)
}

// questionLines is the open question as shown above the input, wrapped
// to width w: the answers at its end ([y/N/a = always allow …]) must show
// on a narrow terminal, where a cut line would hide them.
func (m *model) questionLines(w int) []string {
	var q []string
	add := func(s string) { q = append(q, wrapLine(s, w)...) }
	switch m.asking {
	case promptConfirm:
		for _, c := range m.confirm.messages {
			add(m.st.warn.Render("? "+c.Extension+": ") + oneLine(c.Message, 200))
		}
		what := m.confirm.tool
		if m.confirm.agent != "" {
			what = m.confirm.agent + ": " + what // a subagent's call
		}
		for _, r := range m.tools {
			if r.call.Name == m.confirm.tool {
				what = r.call.Name + " " + inputSummary(r.call.Name, r.call.Input)
			}
		}
		if d := m.confirm.diff; d != nil {
			// The change itself, as the transcript shows it after.
			q = append(q, diffLinesN(d, m.st, w, max(agent.DiffPreviewLines, m.height/2))...)
		}
		choices := "[y/N]"
		if m.confirm.always != "" {
			choices = "[y/N/a = always allow " + m.confirm.always + "]"
		}
		add(m.st.warn.Render("Run " + what + "? " + choices))
	case promptChoice:
		q = append(q, m.choiceLines(w)...)
	case promptTrust:
		q = append(q, m.trustLines(w)...)
		add(m.st.warn.Render(m.trustQuestion()))
	}
	return q
}
