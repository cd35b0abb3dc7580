package tui

import (
	"regexp"
	"strings"

	"charm.land/glamour/v2"
	gstyles "charm.land/glamour/v2/styles"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// markdown renders finished answers. A renderer is built once per width
// (building one parses its style); answers are rendered once, when their
// message completes, never while they stream.
type markdown struct {
	style string
	// rs holds a renderer per word-wrap width: the terminal's, and each
	// table's own (see render).
	rs map[int]*glamour.TermRenderer
	// chosen: the user named the style (GLAMOUR_STYLE), or there is no
	// terminal; the background does not change it.
	chosen bool
}

// follow switches between the dark and light styles to match the
// terminal's background, as the terminal reported it.
func (md *markdown) follow(dark bool) {
	if md.chosen {
		return
	}
	style := gstyles.DarkStyle
	if !dark {
		style = gstyles.LightStyle
	}
	if style != md.style {
		md.style, md.rs = style, nil
	}
}

// markdownStyle picks the glamour style: GLAMOUR_STYLE if it names a
// built-in style, "notty" (plain ASCII markup) when the output is no
// terminal, else "dark". With NO_COLOR the style stays "dark": printing
// downsamples it to no colours, keeping bold and italics, which reads
// better than the literal **markers** of "notty".
func markdownStyle(p colorprofile.Profile, environ []string) string {
	if s := envValue(environ, "GLAMOUR_STYLE"); s != "" {
		if _, ok := gstyles.DefaultStyles[s]; ok {
			return s
		}
	}
	if p == colorprofile.NoTTY {
		return gstyles.NoTTYStyle
	}
	return gstyles.DarkStyle
}

// render returns text as styled terminal lines for a terminal width
// cells wide, without the blank lines glamour puts around a document.
// Should rendering fail, the text is shown as it is.
//
// Glamour stretches a table over the whole width it is given, so each
// table is rendered on its own, given just the width of its content;
// the text between tables is rendered at the terminal's width.
func (md *markdown) render(text string, width int) string {
	wrap := max(width-4, 20) // the style's document margin, and a spare cell
	var parts []string
	for _, seg := range splitTables(text) {
		w := wrap
		if seg.table > 0 {
			w = min(seg.table+markdownMargin, wrap)
		}
		if out := md.renderAt(seg.text, w); out != "" {
			parts = append(parts, out)
		}
	}
	return strings.Join(parts, "\n\n")
}

// markdownMargin is the width glamour's styles take around a block: the
// document margin on either side.
const markdownMargin = 4

// renderAt renders text wrapped at wrap cells, trimmed of padding and of
// blank lines around it. Single line breaks stay line breaks: a model
// that breaks a line means it.
func (md *markdown) renderAt(text string, wrap int) string {
	r := md.rs[wrap]
	if r == nil {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStandardStyle(md.style), glamour.WithWordWrap(wrap), glamour.WithPreservedNewLines())
		if err != nil {
			return text
		}
		if md.rs == nil || len(md.rs) > 16 { // tables bring their own widths; keep few
			md.rs = map[int]*glamour.TermRenderer{}
		}
		md.rs[wrap] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return text
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = trimPadding(l)
	}
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// segment is a run of markdown: a table, with the width its content
// takes when rendered, or other text (table 0).
type segment struct {
	text  string
	table int
}

// tableDelimiter is a table's second line: |---|:--:|, pipes optional at
// the ends.
var tableDelimiter = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// splitTables cuts markdown into tables and the text around them. A
// table is a line with a pipe, a delimiter line with as many columns,
// and the lines up to the next blank one; code fences are skipped.
func splitTables(text string) []segment {
	lines := strings.Split(text, "\n")
	var segs []segment
	start, inFence := 0, false
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || i+1 >= len(lines) || !strings.Contains(t, "|") || !tableDelimiter.MatchString(lines[i+1]) ||
			len(tableCells(lines[i])) != len(tableCells(lines[i+1])) {
			continue
		}
		end := i + 2
		for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
			end++
		}
		if i > start {
			segs = append(segs, segment{text: strings.Join(lines[start:i], "\n")})
		}
		segs = append(segs, segment{text: strings.Join(lines[i:end], "\n"), table: tableWidth(lines[i:end])})
		start, i = end, end-1
	}
	if start < len(lines) {
		segs = append(segs, segment{text: strings.Join(lines[start:], "\n")})
	}
	return segs
}

// tableCells splits a table line into its cells' text, honouring \|.
func tableCells(line string) []string {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, "\\|") {
		t = t[:len(t)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\' && i+1 < len(t) && t[i+1] == '|':
			b.WriteByte('|')
			i++
		case t[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(t[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// tableWidth is how wide glamour draws a table given room: each column
// as wide as its widest cell plus a space either side, and a separator
// between columns. Cells are measured as written, so inline markup makes
// the estimate a little generous, never too tight. The delimiter line
// (index 1) does not count.
func tableWidth(lines []string) int {
	var cols []int
	for i, l := range lines {
		if i == 1 {
			continue
		}
		for c, cell := range tableCells(l) {
			if c >= len(cols) {
				cols = append(cols, 0)
			}
			cols[c] = max(cols[c], ansi.StringWidth(cell))
		}
	}
	w := max(len(cols)-1, 0)
	for _, c := range cols {
		w += c + 2
	}
	return w
}

// trailingPad is the padding glamour puts at the end of a line: spaces,
// each often wrapped in its own SGR sequences.
var trailingPad = regexp.MustCompile(`(?:[ \t]|\x1b\[[0-9;]*m)+$`)

// trimPadding drops a line's trailing padding, keeping it reset.
func trimPadding(l string) string {
	loc := trailingPad.FindStringIndex(l)
	if loc == nil {
		return l
	}
	if strings.Contains(l[loc[0]:], "\x1b[") {
		return l[:loc[0]] + "\x1b[m"
	}
	return l[:loc[0]]
}

// blank reports whether a styled line shows nothing.
func blank(l string) bool { return strings.TrimSpace(ansiStrip(l)) == "" }

// finishedBlocks is how much of a streaming markdown answer is finished
// blocks: up to the last blank line outside a code fence, 0 if none. The
// rest is the block still being written, shown as it is until it ends,
// since a half-written list or fence renders differently once complete.
func finishedBlocks(s string) int {
	cut, inFence, pos := 0, false, 0
	for pos < len(s) {
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			break // the last line is still being written
		}
		line := s[pos : pos+end]
		next := pos + end + 1
		switch t := strings.TrimSpace(line); {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			inFence = !inFence
		case t == "" && !inFence:
			cut = next
		}
		pos = next
	}
	return cut
}
