package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table draws a table as wide as its content: each column as wide as its
// widest cell plus a space either side, a bar between columns and a rule
// under the header. A table wider than the room gives up width from its
// widest columns first, and their cells wrap.
func (r *renderer) table(n *east.Table, w int) []string {
	var rows [][][]run
	header := 0
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]run
		bold := false
		if _, ok := row.(*east.TableHeader); ok {
			header, bold = 1, true
		}
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, r.inlines(c, style{bold: bold && r.th.Color}))
		}
		rows = append(rows, cells)
	}
	ncol := len(n.Alignments)
	for _, row := range rows {
		ncol = max(ncol, len(row))
	}
	if ncol == 0 {
		return nil
	}
	if 4*ncol-1 > w { // not even one cell a column: each row as a line of text
		var out []string
		for _, row := range rows {
			var joined []run
			for c, cell := range row {
				if c > 0 {
					joined = append(joined, run{text: " | "})
				}
				joined = append(joined, cell...)
			}
			out = append(out, wrap(joined, w)...)
		}
		return out
	}
	widths := make([]int, ncol)
	for _, row := range rows {
		for c, cell := range row {
			widths[c] = max(widths[c], width(cell))
		}
	}
	shrink(widths, w-3*ncol+1)

	bar, rule := "│", "─"
	if !r.th.Color {
		bar, rule = "|", "-"
	}
	border := style{fg: r.th.Rule}
	var out []string
	for i, row := range rows {
		cells := make([][]string, ncol)
		height := 1
		for c := range ncol {
			if c < len(row) {
				cells[c] = wrap(row[c], widths[c])
			}
			height = max(height, len(cells[c]))
		}
		for l := range height {
			var b strings.Builder
			for c := range ncol {
				if c > 0 {
					b.WriteString(border.paint(bar))
				}
				s := ""
				if l < len(cells[c]) {
					s = cells[c][l]
				}
				b.WriteByte(' ')
				b.WriteString(pad(s, ansi.StringWidth(s), widths[c], alignment(n, c)))
				b.WriteByte(' ')
			}
			out = append(out, strings.TrimRight(b.String(), " "))
		}
		if i == 0 && header == 1 {
			parts := make([]string, ncol)
			for c := range ncol {
				parts[c] = strings.Repeat(rule, widths[c]+2)
			}
			cross := "┼"
			if !r.th.Color {
				cross = "|"
			}
			out = append(out, border.paint(strings.Join(parts, cross)))
		}
	}
	return out
}

// shrink narrows columns until their sum fits room, taking a cell at a
// time from the widest; no column goes below one cell.
func shrink(widths []int, room int) {
	total := 0
	for _, w := range widths {
		total += w
	}
	for total > room {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= 1 {
			return
		}
		widths[widest]--
		total--
	}
}

// alignment is column c's alignment as the delimiter row set it.
func alignment(n *east.Table, c int) int {
	if c >= len(n.Alignments) {
		return alignLeft
	}
	switch n.Alignments[c] {
	case east.AlignRight:
		return alignRight
	case east.AlignCenter:
		return alignCenter
	}
	return alignLeft
}
