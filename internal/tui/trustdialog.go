package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/trust"
)

// The trust dialog: opening the terminal UI in a project that holds
// something trust gates (an untrusted project, or a trusted one whose
// items changed since) lists what trusting would enable — each changed
// item with its difference — and asks: trust (recorded, as `synaps
// trust`), trust once (this session, as --trust-project) or don't trust.
// -p never asks; the start note names the same items there.

// trustDialogMax is how many items the dialog lists before "… and N more".
const trustDialogMax = 8

// openTrustDialog asks about the held items.
func (m *model) openTrustDialog(held []trust.Held, listed bool) {
	m.trustHeld, m.trustListed = held, listed
	m.untrusted = len(held)
	m.ask(promptTrust)
	m.input.Placeholder = "y (trust), o (trust once) or n, then enter"
}

// trustQuestion is the dialog's question line.
func (m *model) trustQuestion() string {
	if len(m.trustHeld) == 0 {
		return fmt.Sprintf("This project has %s that trust gates. Trust this project? [y = trust / o = trust once / N = don't]", plural.Count(m.untrusted, "item"))
	}
	if m.trustListed {
		return fmt.Sprintf("%s changed since you trusted this project. Approve? [y = trust / o = trust once / N = don't]", plural.Count(len(m.trustHeld), "item"))
	}
	return fmt.Sprintf("This project is not trusted; trusting it enables %s. Trust this project? [y = trust / o = trust once / N = don't]", plural.Count(len(m.trustHeld), "item"))
}

// trustLines are the dialog's lines above the question: each item, what
// it is and why it asks, and for a changed one the line that changed.
func (m *model) trustLines(w int) []string {
	var out []string
	for i, h := range m.trustHeld {
		if i == trustDialogMax {
			out = append(out, fit(m.st.dim.Render(fmt.Sprintf("  … and %d more (synaps trust lists them all)", len(m.trustHeld)-i)), w))
			break
		}
		mark := "+"
		if h.Reason == trust.Changed {
			mark = "~"
		}
		line := "  " + mark + " " + sanitize(h.Item.Label())
		if m.trustListed {
			line += " · " + string(h.Reason)
		}
		out = append(out, fit(line, w))
		if h.Reason == trust.Changed && h.Was != nil && (h.Was.Text != "" || h.Item.Text != "") {
			was, now := trust.Difference(h.Was.Text, h.Item.Text)
			out = append(out, fit(m.st.bad.Render("      - "+oneLine(sanitize(was), 400)), w), fit(m.st.ok.Render("      + "+oneLine(sanitize(now), 400)), w))
		}
	}
	return out
}

// trustChoice reads the dialog's answer: trust, trust once, or neither.
func trustChoice(s string) (trusted, once bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "t", "trust":
		return true, false
	case "o", "once":
		return true, true
	}
	return false, false
}

// answerTrust handles the dialog's answer.
func (m *model) answerTrust(text string) tea.Cmd {
	m.endAsk()
	m.print(m.st.warn.Render(m.trustQuestion()) + " " + oneLine(text, 20))
	ok, once := trustChoice(text)
	if !ok {
		m.print(m.st.dim.Render("· held back for this session; trust the project later with `synaps trust` (or --trust-project for one run)"))
		return m.next() // what was typed during the start
	}
	return m.startTrust(once)
}

// startTrust trusts the project (once: this session only) and reloads
// the extensions, so its plugins and Claude hooks join now.
func (m *model) startTrust(once bool) tea.Cmd {
	a, hs := m.app, m.hs
	later := false
	for _, h := range m.trustHeld {
		if h.Item.Kind == trust.KindMCP || h.Item.Kind == trust.KindAgent {
			later = true
		}
	}
	return m.work("trusting the project", func(ctx context.Context) workDoneMsg {
		approved, err := a.TrustNow(once)
		if err != nil {
			return workDoneMsg{err: err}
		}
		head := fmt.Sprintf("trusted %s (%s recorded)\n", a.WorkDir, plural.Count(len(approved), "item"))
		if once {
			head = "trusted " + a.WorkDir + " for this session only\n"
		}
		if later {
			head += "its MCP servers and agents join in the next session\n"
		}
		res, err := hs.Slash(ctx, "/extensions reload")
		return workDoneMsg{out: head + res.Output, err: err}
	})
}
