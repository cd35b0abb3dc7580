package tui

import (
	"regexp"
	"strings"

	"charm.land/glamour/v2"
	gstyles "charm.land/glamour/v2/styles"
	"github.com/charmbracelet/colorprofile"
)

// markdown renders finished answers. A renderer is built once per width
// (building one parses its style); answers are rendered once, when their
// message completes, never while they stream.
type markdown struct {
	style string
	width int
	r     *glamour.TermRenderer
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
		md.style, md.r = style, nil
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
func (md *markdown) render(text string, width int) string {
	wrap := max(width-4, 20) // the style's document margin, and a spare cell
	if md.r == nil || md.width != wrap {
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(md.style), glamour.WithWordWrap(wrap))
		if err != nil {
			return text
		}
		md.r, md.width = r, wrap
	}
	out, err := md.r.Render(text)
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
