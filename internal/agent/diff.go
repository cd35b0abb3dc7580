package agent

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// DiffPreviewLines is how many lines of a diff a finished call shows
// before it collapses, in every UI: a diff is what the user most wants to
// see of an edit, so more than an output preview's few lines.
const DiffPreviewLines = 12

// DiffSummary says in words what a diff changed: "1 line added, 2
// removed", "created, 12 lines", "too large to show: 900 lines replaced
// by 1200".
func DiffSummary(d *tool.Diff) string {
	switch {
	case d.Created:
		return "created, " + plural.Count(d.Added, "line")
	case d.TooLarge:
		return fmt.Sprintf("too large to show: %s changed into %d", plural.Count(d.Removed, "line"), d.Added)
	case d.Added == 0 && d.Removed == 0:
		return "no lines changed"
	}
	var parts []string
	if d.Added > 0 {
		parts = append(parts, plural.Count(d.Added, "line")+" added")
	}
	if d.Removed > 0 {
		w := "removed"
		if len(parts) == 0 {
			w = plural.Noun(d.Removed, "line") + " removed"
		}
		parts = append(parts, fmt.Sprintf("%d %s", d.Removed, w))
	}
	return strings.Join(parts, ", ")
}

// DiffLine is one diff line ready to print: Number is the line's number
// in the file it is from (the old file for a removed line, the new one
// otherwise), right-aligned to the widest shown; Kind is "-", "+", " " or
// "…"; Text is safe for a terminal.
type DiffLine struct {
	Number, Kind, Text string
}

// DiffPreview is the first n lines of a diff as they print, and how many
// more there are (collapsed, as long output is).
func DiffPreview(d *tool.Diff, n int) (lines []DiffLine, more int) {
	shown := d.Lines[:min(n, len(d.Lines))]
	more = len(d.Lines) - len(shown) + d.More
	width := 0
	num := func(l tool.DiffLine) int {
		if l.Kind == tool.DiffRemoved {
			return l.Old
		}
		return l.New
	}
	for _, l := range shown {
		width = max(width, len(strconv.Itoa(num(l))))
	}
	for _, l := range shown {
		dl := DiffLine{Kind: l.Kind, Text: Printable(l.Text)}
		if l.Kind == tool.DiffGap {
			dl.Number = strings.Repeat(" ", width)
			dl.Text = ""
		} else {
			dl.Number = fmt.Sprintf("%*d", width, num(l))
		}
		lines = append(lines, dl)
	}
	return lines, more
}
