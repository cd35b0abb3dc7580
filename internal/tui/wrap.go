package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wrapLine breaks a line wider than limit cells into lines of at most
// limit cells, at spaces: a word is cut only when it is longer than a
// line. The terminal would cut it anywhere ("lifecy|cle"). The lines
// after the first continue under the line's text: a table row's second
// column (/help's "/mode [NAME]   show …"), else the line's own
// indentation, so that a wrapped row still reads as one.
func wrapLine(l string, limit int) []string {
	if limit < 1 || ansi.StringWidth(l) <= limit {
		return []string{l}
	}
	ind := hangIndent(ansi.Strip(l), limit)
	head, body := ansi.Cut(l, 0, ind), ansi.Cut(l, ind, ansi.StringWidth(l))
	lines := strings.Split(ansi.Wrap(body, limit-ind, ""), "\n")
	pad := strings.Repeat(" ", ind)
	for i := range lines {
		if i == 0 {
			lines[i] = head + lines[i]
			continue
		}
		lines[i] = pad + strings.TrimLeft(lines[i], " ")
	}
	return lines
}

// hangIndent is the column that a wrapped line's continuation starts
// at: after the first gap of two or more spaces that follows the text
// (a column of a table), else after the leading spaces. It leaves at
// least half the width for the text: past that, 0.
func hangIndent(plain string, limit int) int {
	lead := len(plain) - len(strings.TrimLeft(plain, " "))
	ind := lead
	if gap := strings.Index(plain[lead:], "  "); gap > 0 {
		rest := plain[lead+gap:]
		col := lead + gap + len(rest) - len(strings.TrimLeft(rest, " "))
		if col < len(plain) {
			ind = ansi.StringWidth(plain[:col])
		}
	}
	if ind > limit/2 {
		ind = ansi.StringWidth(plain[:lead])
		if ind > limit/2 {
			return 0
		}
	}
	return ind
}
