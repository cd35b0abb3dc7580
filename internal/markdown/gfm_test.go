package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// The GitHub extensions in gfm.go must build the tree goldmark's own
// extension package builds (a test may link that package; synaps may
// not, see gfm.go). Each case is parsed by both and the trees compared
// node by node, with every text's bytes.

var gfmCases = []string{
	// strikethrough
	"~~old~~ new", "~one~ ~~two~~ ~~~three~~~", "a~~b~~c", "~~ not ~~", "~~unclosed", "**~~both~~**", "~~a *b* c~~",
	"x ~~y~ z", "\\~~no~~", "`~~code~~`",
	// task lists
	"- [x] done\n- [ ] todo\n- [X] Done\n- [] no\n- [y] no",
	"- [x]\n- [ ]x\n- [\t] tab\n1. [x] ordered", "* [ ] a\n  * [x] nested", "- text [x] later", "[x] not in a list",
	"- > [x] quoted", "- [x] **bold** after", "- \n  [x] second line",
	// bare URLs
	"see https://x.dev", "https://x.dev at the start", "(https://x.dev/a_(b))", "https://x.dev/a(b)c).",
	"www.example.com/path?q=1&r=2.", "a www.example.com, b", "ftp://files.example.org:21/x", "http://localhost:8080/",
	"https://example.com:8080/path#frag!", "https://EXAMPLE.COM", "https://ex.co;", "https://ex.co/&amp;", "https://ex.co/a&b;",
	"mail me@example.com.", "me@example", "a.b-c@d.e.f_", "me@x.io-", "*https://x.dev*", "_www.x.com_", "~https://x.dev~",
	"[https://x.dev](https://y.dev)", "<https://x.dev>", "`https://x.dev`", "https://x.dev/~user/ok?", "http://a.b.c.d.e",
	"https://" + strings.Repeat("a", 300) + ".com", "https://" + strings.Repeat("a", 255) + ".com/x", "www." + strings.Repeat("b.", 140) + "org",
	"https://x.dev/$price", "www.x.dev/$price", "http://x", "http://.com", "https://-.a", "word https://x.dev/\"quoted\"",
	"café https://ü.dev", "https://x.dev)))", "((https://x.dev))", "https://x.dev/path/.", "https://x.dev/a.?", "see www.x.org.!", "https://x.dev/a_:_", "1@2.3", "_me@example.com_",
	// tables
	"| a | b |\n|---|---|\n| 1 | 2 |", "a | b\n--|--\n1 | 2", "| a |\n|:--|\n| l |", "| a | b | c |\n|:-:|--:|:--|\n|1|2|3|",
	"| a | b |\n|---|---|\n| 1 |", "| a | b |\n|---|---|\n| 1 | 2 | 3 |", "| a |\n|---|---|", "| a | b |\n|---|",
	"text before\n| a | b |\n|---|---|\n| 1 | 2 |", "one\ntwo\n| a |\n| - |\nbody", "| a \\| b | c |\n|---|---|\n| `x \\| y` | `p\\|q\\|r` |",
	"| `a|b` | c |\n|---|---|", "|a|\n|-|\n|", "| a |\n| :---: |\n", "| a |\n|- -|", "| a |\n|:-:-|", "    | a |\n    |---|",
	"| a |\n   |---|", "| a |\n    |---|", "| a |\n|---|\n| **b** ~~c~~ https://x.dev |", "- | a |\n  |---|\n  | 1 |",
	"> | a |\n> |---|\n> | 1 |", "|\n|", "| a |\n|-|\n\n| b |", "| a | b |\n| --- | --- |\n| [x] | `y` |",
	"| a |\n|\v---|", "| a |\n|---|\n|", "x\n|a|\n|:-|:|",
	// mixed
	"# Title\n\n- [x] see https://x.dev ~~now~~\n\n| a |\n|---|\n| www.x.org |\n",
}

func TestGFMAgreesWithGoldmark(t *testing.T) {
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Linkify)).Parser()
	ours := newParser()
	for _, src := range gfmCases {
		want := dump(theirs.Parse(text.NewReader([]byte(src))), []byte(src))
		got := dump(ours.Parse(text.NewReader([]byte(src))), []byte(src))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-goldmark/extension +gfm.go):\n%s", src, d)
		}
	}
}

// The same on documents stitched at random from pieces of the cases,
// so that the extensions meet each other and the CommonMark syntax
// around them (a fixed seed: the same documents every run).
func TestGFMAgreesWithGoldmarkMixed(t *testing.T) {
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Linkify)).Parser()
	ours := newParser()
	var pieces []string
	for _, c := range gfmCases {
		pieces = append(pieces, strings.Split(c, "\n")...)
	}
	pieces = append(pieces, "", "", "**", "_", "*", "(", ")", "[", "](", "> ", "- ", "  ", "```", "`", "\\", "|", ":--", "---")
	r := rand.New(rand.NewPCG(15, 2026))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := r.IntN(8) + 1; k > 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(3) > 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		src := b.String()
		want := dump(theirs.Parse(text.NewReader([]byte(src))), []byte(src))
		got := dump(ours.Parse(text.NewReader([]byte(src))), []byte(src))
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%q (-goldmark/extension +gfm.go):\n%s", src, d)
		}
	}
}

// dump writes the tree one node a line: its kind, what distinguishes
// it, and its text.
func dump(doc ast.Node, src []byte) string {
	var b strings.Builder
	depth := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", depth), n.Kind())
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %q soft=%v hard=%v raw=%v", n.Segment.Value(src), n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.String:
			fmt.Fprintf(&b, " %q", n.Value)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " %v url=%q label=%q protocol=%q", n.AutoLinkType, n.URL(src), n.Label(src), n.Protocol)
		case *east.Table:
			fmt.Fprintf(&b, " %v", n.Alignments)
		case *east.TableCell:
			fmt.Fprintf(&b, " %v", n.Alignment)
		case *east.TableRow:
			fmt.Fprintf(&b, " %v", n.Alignments)
		case *east.TableHeader:
			fmt.Fprintf(&b, " %v", n.Alignments)
		case *east.TaskCheckBox:
			fmt.Fprintf(&b, " checked=%v", n.IsChecked)
		case *ast.Heading:
			fmt.Fprintf(&b, " %d", n.Level)
		case *ast.Emphasis:
			fmt.Fprintf(&b, " %d", n.Level)
		case *ast.Link:
			fmt.Fprintf(&b, " %q", n.Destination)
		}
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				fmt.Fprintf(&b, " |%q", seg.Value(src))
			}
		}
		b.WriteByte('\n')
		depth++
		return ast.WalkContinue, nil
	})
	return b.String()
}

func FuzzGFMAgreesWithGoldmark(f *testing.F) {
	for _, c := range gfmCases {
		f.Add(c)
	}
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Linkify)).Parser()
	ours := newParser()
	f.Fuzz(func(t *testing.T, src string) {
		want := dump(theirs.Parse(text.NewReader([]byte(src))), []byte(src))
		got := dump(ours.Parse(text.NewReader([]byte(src))), []byte(src))
		if want != got {
			t.Errorf("%q (-goldmark/extension +gfm.go):\n%s", src, cmp.Diff(want, got))
		}
	})
}
