package tui

import (
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/synaps-cli/synaps/internal/markdown"
)

// markdownDefault is the theme unless the user or the terminal's
// background picks another.
const markdownDefault = "dark"

// markdownView renders finished answers in the chosen theme; answers are rendered
// once, when their message completes, never while they stream.
type markdownView struct {
	style string
	// chosen: the user named the style (GLAMOUR_STYLE), or there is no
	// terminal; the background does not change it.
	chosen bool
}

// follow switches between the dark and light styles to match the
// terminal's background, as the terminal reported it.
func (md *markdownView) follow(dark bool) {
	if md.chosen {
		return
	}
	md.style = "dark"
	if !dark {
		md.style = "light"
	}
}

// markdownStyle picks the theme: GLAMOUR_STYLE if it names one synaps
// has (the variable other terminal tools read, so one setting serves
// all), "notty" (plain text, markers kept) when the output is no
// terminal, else "dark". With NO_COLOR the style stays "dark": printing
// downsamples it to no colours, keeping bold and italics, which reads
// better than the literal **markers** of "notty".
func markdownStyle(p colorprofile.Profile, environ []string) string {
	if s := envValue(environ, "GLAMOUR_STYLE"); s != "" {
		if _, ok := markdown.Named(s); ok {
			return s
		}
	}
	if p == colorprofile.NoTTY {
		return "notty"
	}
	return markdownDefault
}

// render returns text as styled terminal lines for a terminal width
// cells wide, without blank lines around it.
func (md *markdownView) render(text string, width int) string {
	th, ok := markdown.Named(md.style)
	if !ok {
		th, _ = markdown.Named(markdownDefault)
	}
	return markdown.Render(text, width, th)
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
