package markdown

// GitHub's extensions to CommonMark — tables, ~~strikethrough~~, task
// list items and bare URLs — as goldmark parser parts, written here
// rather than taken from goldmark's extension package. That package
// compiles a dozen regular expressions at package init (two of them
// with {1,256} repetitions), about 0.7 ms and 260 KB on every start of
// every synaps process, `synaps --version` included, whether or not
// any Markdown is ever drawn. These parts build the same syntax tree
// (the nodes of goldmark/extension/ast, which costs nothing at init);
// gfm_test.go holds them equal to goldmark's extension on a corpus.

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// newParser is goldmark's CommonMark parser with the GitHub extensions,
// at the priorities goldmark's own extensions take.
func newParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(),
			util.Prioritized(taskParser{}, 0),
			util.Prioritized(strikeParser{}, 500),
			util.Prioritized(urlParser{}, 999),
		)...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(tableParagraphs{}, 200),
		)...),
		parser.WithASTTransformers(util.Prioritized(tablePipes{}, 0)),
	)
}

// reSpace is what \s means in a Go regular expression, the definition
// GitHub's syntax uses for "whitespace" in these places.
func reSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// --- ~~strikethrough~~ ---

// strikeParser reads one or two tildes as a delimiter run; goldmark's
// delimiter machinery pairs an opener with a closer of the same length.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelimiter{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil // three or more tildes are text (or a code fence)
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

func (strikeParser) CloseBlock(ast.Node, parser.Context) {}

type strikeDelimiter struct{}

func (strikeDelimiter) IsDelimiter(b byte) bool { return b == '~' }

func (strikeDelimiter) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (strikeDelimiter) OnMatch(int) ast.Node { return east.NewStrikethrough() }

// --- task list items: "- [ ] todo", "- [x] done" ---

type taskParser struct{}

func (taskParser) Trigger() []byte { return []byte{'['} }

// Parse reads a check box only at the very start of a list item's first
// block: "[" + one whitespace, x or X + "]", and the whitespace after it.
func (taskParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	item := parent.Parent()
	if item == nil || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	if _, ok := item.(*ast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return nil
	}
	mark := line[1]
	checked := mark == 'x' || mark == 'X'
	if !checked && !reSpace(mark) {
		return nil
	}
	n := 3
	for n < len(line) && reSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(checked)
}

func (taskParser) CloseBlock(ast.Node, parser.Context) {}

// --- bare URLs: https://example.com, www.example.com, a@b.org ---

// urlParser turns text that looks like a link into an ast.AutoLink, as
// GitHub does: it is tried at the start of a line and after a space,
// '*', '_', '~' or '('.
type urlParser struct{}

func (urlParser) Trigger() []byte { return []byte{' ', '*', '_', '~', '('} }

func (urlParser) CloseBlock(ast.Node, parser.Context) {}

func (urlParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, seg := block.PeekLine()
	lead, start := 0, seg.Start
	if c := line[0]; c == ' ' || c == '*' || c == '_' || c == '~' || c == '(' {
		lead, start, line = 1, start+1, line[1:]
	}
	typ := ast.AutoLinkURL
	var protocol []byte
	end := -1
	if bytes.HasPrefix(line, []byte("http://")) || bytes.HasPrefix(line, []byte("https://")) || bytes.HasPrefix(line, []byte("ftp://")) {
		end = scanURL(line)
	}
	if end < 0 && bytes.HasPrefix(line, []byte("www.")) {
		end, protocol = scanWWW(line), []byte("http")
	}
	if end > 0 {
		end = trimURLEnd(line, end)
	} else {
		if len(line) > 0 && util.IsPunct(line[0]) {
			return nil
		}
		typ = ast.AutoLinkEmail
		if end = emailEnd(line); end < 0 {
			return nil
		}
	}
	// Trailing punctuation ends a sentence rather than the link.
	i := end - 1
	for i > 0 && bytes.IndexByte([]byte("?!.,:*_~"), line[i]) >= 0 {
		i--
	}
	i++
	if lead != 0 {
		ast.MergeOrAppendTextSegment(parent, seg.WithStop(seg.Start+1))
	}
	block.Advance(lead + i)
	link := ast.NewAutoLink(typ, ast.NewTextSegment(text.NewSegment(start, start+i)))
	link.Protocol = protocol
	return link
}

// URL characters: a host, and what may follow it. The path set of a URL
// with a scheme also takes '$'; the one of a www. link does not.
const (
	hostChars    = "-@:%._+~#="
	pathChars    = "-@:%_+.~#!?&/=();,'\">^{}[]`"
	urlPathChars = pathChars + "$"
)

func inSet(c byte, set string) bool {
	return util.IsAlphaNumeric(c) || bytes.IndexByte([]byte(set), c) >= 0
}

// scanURL returns the length of the URL at the start of line, which
// starts with a scheme and "://": a host of 1 to 256 characters ending in a dot and lowercase
// letters, an optional :port and an optional path — or -1.
func scanURL(line []byte) int {
	n := scanHost(line, bytes.Index(line, []byte("://"))+3)
	if n < 0 {
		return -1
	}
	if n < len(line) && line[n] == ':' {
		d := n + 1
		for d < len(line) && line[d] >= '0' && line[d] <= '9' {
			d++
		}
		if d > n+1 {
			n = d
		}
	}
	return scanPath(line, n, urlPathChars)
}

// scanWWW is scanURL for "www." links: no scheme, no port.
func scanWWW(line []byte) int {
	n := scanHost(line, len("www."))
	if n < 0 {
		return -1
	}
	return scanPath(line, n, pathChars)
}

// scanHost reads, from line[from:], the longest run of 1 to 256 host
// characters that is followed by "." and a lowercase letter, then that
// dot and the lowercase letters; it returns the end, or -1.
func scanHost(line []byte, from int) int {
	run := from
	for run < len(line) && run-from < 256 && inSet(line[run], hostChars) {
		run++
	}
	// The last dot inside the run (or just after a run cut at 256)
	// that has at least one host character before it and a lowercase
	// letter after it ends the host name.
	for k := min(run, len(line)-1); k > from; k-- {
		if line[k] == '.' && k+1 < len(line) && line[k+1] >= 'a' && line[k+1] <= 'z' {
			e := k + 1
			for e < len(line) && line[e] >= 'a' && line[e] <= 'z' {
				e++
			}
			return e
		}
	}
	return -1
}

// scanPath reads an optional path: one of '/', '#', '?' and then any
// characters of set.
func scanPath(line []byte, n int, set string) int {
	if n < len(line) && (line[n] == '/' || line[n] == '#' || line[n] == '?') {
		n++
		for n < len(line) && inSet(line[n], set) {
			n++
		}
	}
	return n
}

// trimURLEnd drops what GitHub does not count as part of a link at its
// end: a final '.', the ')' that close parentheses opened before the
// link, and an entity reference such as "&amp;".
func trimURLEnd(line []byte, end int) int {
	switch line[end-1] {
	case '.':
		return end - 1
	case ')':
		open := 0
		for i := end - 1; i >= 0; i-- {
			switch line[i] {
			case ')':
				open++
			case '(':
				open--
			}
		}
		if open > 0 {
			return end - open
		}
	case ';':
		i := end - 2
		for i >= 0 && util.IsAlphaNumeric(line[i]) {
			i--
		}
		if i != end-2 && i >= 0 && line[i] == '&' {
			return i
		}
	}
	return end
}

// emailEnd returns the length of the e-mail address at the start of
// line (its domain must have a dot), or -1.
func emailEnd(line []byte) int {
	stop := util.FindEmailIndex(line)
	if stop < 0 {
		return -1
	}
	at := bytes.IndexByte(line, '@')
	if at < 0 || at > stop-1 || bytes.IndexByte(line[at:stop-1], '.') < 0 {
		return -1
	}
	if line[stop-1] == '.' {
		stop--
	}
	if stop < len(line) && (line[stop] == '-' || line[stop] == '_') {
		return -1
	}
	return stop
}

// --- tables ---

// tableParagraphs turns a paragraph whose line after the first is a
// delimiter row ("| --- | :-: |") into a table: the line before it is
// the header, the lines after it the rows.
type tableParagraphs struct{}

func (tableParagraphs) Transform(node *ast.Paragraph, reader text.Reader, _ parser.Context) {
	lines := node.Lines()
	source := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		aligns := delimiterRow(delim.Value(source))
		if aligns == nil {
			continue
		}
		header := tableRow(lines.At(i-1), aligns, true, source)
		if header == nil || header.ChildCount() != len(aligns) {
			return
		}
		table := east.NewTable()
		table.Alignments = aligns
		table.AppendChild(table, east.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, tableRow(lines.At(j), aligns, false, source))
		}
		// What came before the header stays a paragraph.
		lines.SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if lines.Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
		} else {
			last := lines.At(i - 2)
			last.Stop-- // its line break
			lines.Set(i-2, last)
		}
		return
	}
}

// delimiterRow reads a table's delimiter row — cells of dashes with an
// optional colon at either end — or returns nil.
func delimiterRow(line []byte) []east.Alignment {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return nil
	}
	for _, b := range line {
		if !util.IsSpace(b) && b != '-' && b != '|' && b != ':' {
			return nil
		}
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	var aligns []east.Alignment
	for _, col := range cols {
		col = bytes.TrimFunc(col, func(r rune) bool { return r < 0x80 && reSpace(byte(r)) })
		left, right := bytes.HasPrefix(col, []byte(":")), bytes.HasSuffix(col, []byte(":"))
		dashes := col
		if left {
			dashes = dashes[1:]
		}
		if right && len(dashes) > 0 {
			dashes = dashes[:len(dashes)-1]
		}
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			aligns = append(aligns, east.AlignCenter)
		case left:
			aligns = append(aligns, east.AlignLeft)
		case right:
			aligns = append(aligns, east.AlignRight)
		default:
			aligns = append(aligns, east.AlignNone)
		}
	}
	return aligns
}

// tableRow splits one line into cells at the pipes not escaped with a
// backslash. A body row keeps at most one cell per column and is padded
// to the column count; a header keeps every cell (the caller refuses a
// header whose count differs).
func tableRow(seg text.Segment, aligns []east.Alignment, header bool, source []byte) *east.TableRow {
	seg = seg.TrimLeftSpace(source)
	seg = seg.TrimRightSpace(source)
	line := seg.Value(source)
	pos, limit := 0, len(line)
	if limit > 0 && line[0] == '|' {
		pos++
	}
	if limit > 0 && line[limit-1] == '|' {
		limit--
	}
	row := east.NewTableRow(aligns)
	col := 0
	for ; pos < limit; col++ {
		align := east.AlignNone
		if col < len(aligns) {
			align = aligns[col]
		} else if !header {
			return row
		}
		end := pos
		for end < limit && (line[end] != '|' || end > 0 && line[end-1] == '\\') {
			end++
		}
		cell := east.NewTableCell()
		cell.Alignment = align
		c := text.NewSegment(seg.Start+pos, seg.Start+end)
		c = c.TrimLeftSpace(source)
		c = c.TrimRightSpace(source)
		cell.Lines().Append(c)
		row.AppendChild(row, cell)
		pos = end + 1
	}
	for ; col < len(aligns); col++ {
		row.AppendChild(row, east.NewTableCell())
	}
	return row
}

// tablePipes drops the backslash of an escaped pipe inside a code span
// in a table cell: "`a\|b`" in a cell is the code a|b. (Outside code
// the backslash escape already does that; inside code a backslash is
// literal, but the pipe had to be escaped to stay in its cell.)
type tablePipes struct{}

func (tablePipes) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindCodeSpan || !inTableCell(n) {
			return ast.WalkContinue, nil
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			if t, ok := c.(*ast.Text); ok {
				splitEscapedPipes(n, t, source)
			}
			c = next
		}
		return ast.WalkSkipChildren, nil
	})
}

func inTableCell(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*east.TableCell); ok {
			return true
		}
	}
	return false
}

// splitEscapedPipes replaces t, a text of code span span, with raw texts
// around each backslash that precedes a pipe, leaving the backslash out.
func splitEscapedPipes(span ast.Node, t *ast.Text, source []byte) {
	n := ast.Node(t)
	rest := t.Segment
	for {
		v := rest.Value(source)
		i := bytes.Index(v, []byte(`\|`))
		if i < 0 {
			return
		}
		pos := rest.Start + i
		before := ast.NewRawTextSegment(rest.WithStop(pos))
		after := ast.NewRawTextSegment(rest.WithStart(pos + 1))
		span.InsertAfter(span, n, before)
		span.InsertAfter(span, before, after)
		span.RemoveChild(span, n)
		n, rest = after, after.Segment
	}
}
