package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// run is a stretch of inline text drawn in one style. A run with brk set
// is a line break the author wrote (a model that breaks a line means it).
type run struct {
	text string
	st   style
	brk  bool
}

// piece is part of a word: a word may change style midway ("**bold**ly").
type piece struct {
	text string
	st   style
}

// width is how many cells runs take on one line.
func width(runs []run) int {
	w := 0
	for _, r := range runs {
		w += ansi.StringWidth(r.text)
	}
	return w
}

// wrap lays runs out in lines at most limit cells wide: greedy word
// wrap, breaking where the author broke, and cutting a word wider than
// the line (a long URL or path) rather than letting it overflow.
func wrap(runs []run, limit int) []string {
	limit = max(limit, 1)
	var (
		lines []string
		line  strings.Builder
		lineW int
		word  []piece
		wordW int
		last  style // the style the line's last piece was drawn in
	)
	flushLine := func() {
		lines = append(lines, line.String())
		line.Reset()
		lineW = 0
	}
	put := func(p piece) {
		line.WriteString(p.st.paint(p.text))
		lineW += ansi.StringWidth(p.text)
		last = p.st
	}
	flushWord := func() {
		if len(word) == 0 {
			return
		}
		if lineW > 0 && lineW+1+wordW > limit {
			flushLine()
		} else if lineW > 0 {
			// A space inside one styled stretch (a code span, a banner)
			// keeps its style, so a background does not show a gap.
			if word[0].st == last {
				line.WriteString(last.paint(" "))
			} else {
				line.WriteByte(' ')
			}
			lineW++
		}
		for _, p := range word {
			for p.text != "" {
				room := limit - lineW
				if room <= 0 {
					flushLine()
					room = limit
				}
				head, tail := cut(p.text, room)
				put(piece{head, p.st})
				p.text = tail
			}
		}
		word, wordW = word[:0], 0
	}
	for _, r := range runs {
		if r.brk {
			flushWord()
			flushLine()
			continue
		}
		text := r.text
		for text != "" {
			i := strings.IndexAny(text, " \t\n")
			if i < 0 {
				word = append(word, piece{text, r.st})
				wordW += ansi.StringWidth(text)
				break
			}
			if i > 0 {
				word = append(word, piece{text[:i], r.st})
				wordW += ansi.StringWidth(text[:i])
			}
			flushWord()
			text = text[i+1:]
		}
	}
	flushWord()
	if lineW > 0 || len(lines) == 0 {
		flushLine()
	}
	return lines
}

// cut splits s after at most n cells (at least one rune, so that a
// character wider than the line still makes progress).
func cut(s string, n int) (string, string) {
	w := 0
	for i, r := range s {
		rw := ansi.StringWidth(string(r))
		if w+rw > n && i > 0 {
			return s[:i], s[i:]
		}
		w += rw
	}
	return s, ""
}

// hardwrap cuts one line of plain text into lines at most limit cells wide.
func hardwrap(s string, limit int) []string {
	limit = max(limit, 1)
	var out []string
	for ansi.StringWidth(s) > limit {
		head, tail := cut(s, limit)
		out = append(out, head)
		s = tail
	}
	return append(out, s)
}

// pad fills a plain line out to w cells, aligned left, right or centred.
func pad(s string, sw, w int, align int) string {
	gap := max(w-sw, 0)
	switch align {
	case alignRight:
		return strings.Repeat(" ", gap) + s
	case alignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}

const (
	alignLeft = iota
	alignRight
	alignCenter
)
