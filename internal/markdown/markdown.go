// Package markdown draws a model's Markdown answer as styled terminal
// lines of a given width.
//
// It owns the layout (wrapping, lists, block quotes, tables as wide as
// their content, code blocks kept line for line) and the theme; it knows
// nothing of the terminal program around it. synaps draws Markdown itself
// on goldmark's parser rather than through a full renderer with a
// syntax-highlighting library, because those libraries register every
// lexer and style at package init: ≈ 17 ms that every synaps command
// (`synaps version`, each bundled extension process) paid before main.
package markdown

import (
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// minRoom is the narrowest a nested block gets; deeper nesting stops
// indenting rather than push text past the edge.
const minRoom = 8

// Margin is the blank cells the document keeps on either side.
const Margin = 2

// mdParser reads GitHub-flavoured Markdown: tables, strikethrough, task
// lists and bare URLs, as models write them. It is built on first use,
// not at package init, which every synaps command (and every bundled
// extension process) would pay.
var mdParser = sync.OnceValue(newParser)

// Render draws src for a terminal width cells wide: a two-cell margin on
// the left, nothing wider than width, no blank lines around the document.
// A single line break in src stays a line break.
func Render(src string, width int, th Theme) string {
	source := []byte(src)
	doc := mdParser().Parse(text.NewReader(source))
	r := &renderer{src: source, th: th}
	inner := max(max(width-4, 20)-2*Margin, 1)
	lines := r.blocks(doc, inner, false)
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	margin := strings.Repeat(" ", Margin)
	for i, l := range lines {
		if l != "" {
			lines[i] = margin + l
		}
	}
	return strings.Join(lines, "\n")
}

// renderer holds what every node needs: the source its segments point
// into, and the theme.
type renderer struct {
	src []byte
	th  Theme
}

// blocks draws n's child blocks, a blank line between them unless tight
// (the items of a tight list keep their paragraphs and sublists together).
func (r *renderer) blocks(n ast.Node, w int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, w)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block draws one block node in lines at most w cells wide.
func (r *renderer) block(n ast.Node, w int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(r.inlines(n, style{}), w)
	case *ast.Heading:
		return r.heading(n, w)
	case *ast.ThematicBreak:
		if !r.th.Color {
			return []string{"--------"}
		}
		return []string{style{fg: r.th.Rule}.paint(strings.Repeat("─", min(w, 40)))}
	case *ast.CodeBlock:
		return r.code(n, "", w)
	case *ast.FencedCodeBlock:
		return r.code(n, string(n.Language(r.src)), w)
	case *ast.Blockquote:
		bar := "> "
		if r.th.Color {
			bar = style{fg: r.th.Quote}.paint("│ ")
		}
		if w-2 < minRoom { // nested past the room: no deeper bar
			return r.blocks(n, w, false)
		}
		lines := r.blocks(n, w-2, false)
		for i, l := range lines {
			lines[i] = bar + l
		}
		return lines
	case *ast.List:
		return r.list(n, w)
	case *east.Table:
		return r.table(n, w)
	case *ast.HTMLBlock:
		var lines []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			lines = append(lines, hardwrap(strings.TrimRight(string(seg.Value(r.src)), "\n"), w)...)
		}
		return lines
	}
	return r.blocks(n, w, false)
}

// heading draws a heading: the first as a banner, the others with their
// level's hashes, so that the outline stays readable without colour.
func (r *renderer) heading(n *ast.Heading, w int) []string {
	if !r.th.Color {
		return wrap(append([]run{{text: strings.Repeat("#", n.Level) + " "}}, r.inlines(n, style{})...), w)
	}
	if n.Level == 1 {
		st := style{bold: true, fg: r.th.H1, bg: r.th.H1Bg}
		lines := wrap(r.inlines(n, st), w-2)
		for i, l := range lines {
			lines[i] = st.paint(" ") + l + st.paint(" ")
		}
		return lines
	}
	st := style{bold: true, fg: r.th.Heading}
	return wrap(append([]run{{text: strings.Repeat("#", n.Level) + " ", st: st}}, r.inlines(n, st)...), w)
}

// list draws a list's items with their bullets or numbers; an item's
// later lines line up under its first.
func (r *renderer) list(n *ast.List, w int) []string {
	var out []string
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if !r.th.Color {
			marker = "- "
		}
		if n.IsOrdered() {
			marker = itoa(num) + ". "
			num++
		}
		mw := len([]rune(marker))
		if w-mw < minRoom { // nested past the room: no deeper indent
			marker, mw = "", 0
		}
		body := r.blocks(item, w-mw, n.IsTight)
		if len(body) == 0 {
			body = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		shown := marker
		if r.th.Color {
			shown = style{fg: r.th.Rule}.paint(marker)
		}
		for i, l := range body {
			switch {
			case i == 0:
				out = append(out, shown+l)
			case l == "":
				out = append(out, "")
			default:
				out = append(out, strings.Repeat(" ", mw)+l)
			}
		}
	}
	return out
}

// inlines flattens n's inline children into styled runs, each in base
// plus what its own markup adds.
func (r *renderer) inlines(n ast.Node, base style) []run {
	var runs []run
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		runs = r.inline(c, base, runs)
	}
	return runs
}

func (r *renderer) inline(n ast.Node, st style, runs []run) []run {
	plain := !r.th.Color
	switch n := n.(type) {
	case *ast.Text:
		runs = append(runs, run{text: string(n.Value(r.src)), st: st})
		if n.SoftLineBreak() || n.HardLineBreak() {
			runs = append(runs, run{brk: true})
		}
		return runs
	case *ast.String:
		return append(runs, run{text: string(n.Value), st: st})
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Value(r.src))
			} else if s, ok := c.(*ast.String); ok {
				b.Write(s.Value)
			}
		}
		code := strings.ReplaceAll(b.String(), "\n", " ")
		if plain {
			return append(runs, run{text: "`" + code + "`", st: st})
		}
		cs := st
		cs.fg, cs.bg = r.th.Code, r.th.CodeBg
		return append(runs, run{text: code, st: cs})
	case *ast.Emphasis:
		mark := strings.Repeat("*", n.Level)
		es := st
		if n.Level >= 2 {
			es.bold = true
		} else {
			es.italic = true
		}
		if plain {
			return r.marked(n, st, mark, runs)
		}
		return r.inlines2(n, es, runs)
	case *east.Strikethrough:
		ss := st
		ss.strike = true
		if plain {
			return r.marked(n, st, "~~", runs)
		}
		return r.inlines2(n, ss, runs)
	case *ast.Link:
		ls := st
		if !plain {
			ls.fg, ls.underline = r.th.Link, true
		}
		before := len(runs)
		runs = r.inlines2(n, ls, runs)
		label := runsText(runs[before:])
		if dest := string(n.Destination); dest != "" && dest != label {
			runs = append(runs, run{text: " " + dest, st: style{faint: !plain}})
		}
		return runs
	case *ast.AutoLink:
		ls := st
		if !plain {
			ls.fg, ls.underline = r.th.Link, true
		}
		return append(runs, run{text: string(n.URL(r.src)), st: ls})
	case *ast.Image:
		alt := runsText(r.inlines(n, style{}))
		return append(runs, run{text: "[image: " + alt + "] " + string(n.Destination), st: style{faint: !plain}})
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			runs = append(runs, run{text: string(seg.Value(r.src)), st: st})
		}
		return runs
	case *east.TaskCheckBox:
		if n.IsChecked {
			return append(runs, run{text: "[✓] ", st: st})
		}
		return append(runs, run{text: "[ ] ", st: st})
	}
	return r.inlines2(n, st, runs)
}

// marked draws an emphasis-like node between its markers, for themes
// without colour or attributes.
func (r *renderer) marked(n ast.Node, st style, mark string, runs []run) []run {
	runs = append(runs, run{text: mark})
	runs = r.inlines2(n, st, runs)
	return append(runs, run{text: mark})
}

// inlines2 appends n's children's runs to runs.
func (r *renderer) inlines2(n ast.Node, st style, runs []run) []run {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		runs = r.inline(c, st, runs)
	}
	return runs
}

// runsText is the plain text of runs.
func runsText(runs []run) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(r.text)
	}
	return b.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
