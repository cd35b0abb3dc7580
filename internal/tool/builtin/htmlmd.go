package builtin

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlToMarkdown is the readable text of an HTML page as Markdown:
// headings, paragraphs, links, emphasis, code, lists, quotes, tables as
// rows of cells, images by their alt text. Scripts, styles and the head
// (but its title) are left out. It is a reader's converter, not a
// faithful one: what the model needs is the text and where it links.
func htmlToMarkdown(r io.Reader) (string, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return "", err
	}
	c := &mdConv{}
	if t := findTitle(doc); t != "" {
		c.b.WriteString("# " + t + "\n\n")
	}
	c.walk(doc)
	out := blankRuns.ReplaceAllString(c.b.String(), "\n\n")
	return strings.TrimSpace(out) + "\n", nil
}

var blankRuns = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+\n`)

type mdConv struct {
	b     strings.Builder
	pre   int // inside <pre>: text kept as is
	lists []listState
}

type listState struct {
	ordered bool
	n       int
}

func findTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.DataAtom == atom.Title {
		return collapse(textOf(n))
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Body {
		return ""
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if t := findTitle(ch); t != "" {
			return t
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			f(ch)
		}
	}
	f(n)
	return b.String()
}

var spaces = regexp.MustCompile(`\s+`)

func collapse(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

// block starts a new block: a blank line after what came before.
func (c *mdConv) block() {
	s := c.b.String()
	switch {
	case s == "" || strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		c.b.WriteString("\n")
	default:
		c.b.WriteString("\n\n")
	}
}

func (c *mdConv) newline() {
	if s := c.b.String(); s != "" && !strings.HasSuffix(s, "\n") {
		c.b.WriteString("\n")
	}
}

func (c *mdConv) children(n *html.Node) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.walk(ch)
	}
}

func (c *mdConv) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		if c.pre > 0 {
			c.b.WriteString(n.Data)
			return
		}
		t := spaces.ReplaceAllString(n.Data, " ")
		if s := c.b.String(); s == "" || strings.HasSuffix(s, "\n") || strings.HasSuffix(s, " ") {
			t = strings.TrimLeft(t, " ")
		}
		c.b.WriteString(t)
		return
	case html.DocumentNode:
		c.children(n)
		return
	case html.ElementNode:
	default:
		return
	}
	switch n.DataAtom {
	case atom.Head, atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg, atom.Iframe:
		return
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.block()
		c.b.WriteString(strings.Repeat("#", int(n.Data[1]-'0')) + " " + collapse(textOf(n)))
		c.block()
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Main, atom.Header, atom.Footer, atom.Nav, atom.Aside, atom.Figure, atom.Form:
		c.block()
		c.children(n)
		c.block()
	case atom.Br:
		c.b.WriteString("\n")
	case atom.Hr:
		c.block()
		c.b.WriteString("---")
		c.block()
	case atom.A:
		text := collapse(textOf(n))
		href := attr(n, "href")
		if href == "" || strings.HasPrefix(href, "javascript:") || text == "" {
			c.children(n)
			return
		}
		c.b.WriteString("[" + text + "](" + href + ")")
	case atom.Strong, atom.B:
		c.wrap(n, "**")
	case atom.Em, atom.I:
		c.wrap(n, "*")
	case atom.Code:
		if c.pre > 0 {
			c.children(n)
			return
		}
		c.wrap(n, "`")
	case atom.Pre:
		c.block()
		c.b.WriteString("```\n")
		c.pre++
		c.children(n)
		c.pre--
		c.newline()
		c.b.WriteString("```")
		c.block()
	case atom.Ul, atom.Ol:
		c.newline()
		c.lists = append(c.lists, listState{ordered: n.DataAtom == atom.Ol})
		c.children(n)
		c.lists = c.lists[:len(c.lists)-1]
		c.block()
	case atom.Li:
		c.newline()
		indent := strings.Repeat("  ", max(0, len(c.lists)-1))
		mark := "- "
		if k := len(c.lists); k > 0 && c.lists[k-1].ordered {
			c.lists[k-1].n++
			mark = strconv.Itoa(c.lists[k-1].n) + ". "
		}
		c.b.WriteString(indent + mark)
		c.children(n)
		c.newline()
	case atom.Blockquote:
		c.block()
		inner := &mdConv{}
		inner.children(n)
		for _, l := range strings.Split(strings.TrimSpace(inner.b.String()), "\n") {
			c.b.WriteString("> " + l + "\n")
		}
		c.block()
	case atom.Tr:
		c.newline()
		var cells []string
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.ElementNode && (ch.DataAtom == atom.Td || ch.DataAtom == atom.Th) {
				cells = append(cells, collapse(textOf(ch)))
			}
		}
		c.b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	case atom.Table:
		c.block()
		c.children(n)
		c.block()
	case atom.Img:
		if alt := strings.TrimSpace(attr(n, "alt")); alt != "" {
			c.b.WriteString("![" + alt + "]")
		}
	default:
		c.children(n)
	}
}

func (c *mdConv) wrap(n *html.Node, mark string) {
	t := collapse(textOf(n))
	if t == "" {
		return
	}
	c.b.WriteString(mark + t + mark)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
