package tui

import (
	"fmt"
	"strings"
)

// pasteCollapseLines: a paste of more lines than this shows in the input
// as one placeholder ("[Pasted text +400 lines]"), as in Claude Code, so
// that it does not fill the input; what is sent is the whole text.
const pasteCollapseLines = 10

// pasteText puts pasted text into the input: as it is when short, else
// as a placeholder that stands for it until it is sent.
func (m *model) pasteText(content string) {
	content = strings.ReplaceAll(strings.ReplaceAll(content, "\r\n", "\n"), "\r", "\n")
	n := strings.Count(strings.TrimRight(content, "\n"), "\n") + 1
	if n <= pasteCollapseLines || m.asking != promptNone {
		m.input.InsertString(content)
		return
	}
	if m.pasted == nil {
		m.pasted = map[string]string{}
	}
	ph := fmt.Sprintf("[Pasted text +%d lines]", n)
	for i := 2; ; i++ {
		if old, ok := m.pasted[ph]; !ok || old == content {
			break
		}
		ph = fmt.Sprintf("[Pasted text #%d +%d lines]", i, n)
	}
	m.pasted[ph] = content
	m.input.InsertString(ph)
}

// expandPastes is text with each paste placeholder replaced by the text
// it stands for: what goes to the model, a command or the history.
func (m *model) expandPastes(text string) string {
	for ph, content := range m.pasted {
		if strings.Contains(text, ph) {
			text = strings.ReplaceAll(text, ph, content)
		}
	}
	return text
}

// hasPaste reports whether text holds a paste placeholder.
func (m *model) hasPaste(text string) bool {
	for ph := range m.pasted {
		if strings.Contains(text, ph) {
			return true
		}
	}
	return false
}
