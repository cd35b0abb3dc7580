package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// lines renders src at width and returns the lines as the reader sees
// them: no colour, no margin, no trailing spaces.
func lines(t *testing.T, src string, width int, theme string) []string {
	t.Helper()
	th, ok := Named(theme)
	if !ok {
		t.Fatalf("no theme %q", theme)
	}
	var got []string
	for _, l := range strings.Split(ansi.Strip(Render(src, width, th)), "\n") {
		got = append(got, strings.TrimRight(strings.TrimPrefix(l, "  "), " "))
	}
	return got
}

func TestRenderLayout(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		width    int
		want     []string
	}{
		{"heading levels", "# Top\n\n## Sub\n\ntext\n", 80, []string{" Top", "", "## Sub", "", "text"}},
		{"ordered list counts from its start", "3. c\n4. d\n", 80, []string{"3. c", "4. d"}},
		{"nested list indents under its item", "- a\n  - b\n- c\n", 80, []string{"• a", "  • b", "• c"}},
		{"loose list keeps its blank lines", "- a\n\n- b\n", 80, []string{"• a", "", "• b"}},
		{"list item wraps under its text", "- " + strings.Repeat("word ", 8), 30, []string{"• word word word word", "  word word word word"}},
		{"task list", "- [x] done\n- [ ] todo\n", 80, []string{"• [✓] done", "• [ ] todo"}},
		{"block quote", "> one\n> two\n", 80, []string{"│ one", "│ two"}},
		{"rule", "a\n\n---\n\nb\n", 30, []string{"a", "", strings.Repeat("─", 22), "", "b"}},
		{"link shows its destination", "[docs](https://x.dev)\n", 80, []string{"docs https://x.dev"}},
		{"bare link is the URL", "see https://x.dev\n", 80, []string{"see https://x.dev"}},
		{"inline code keeps its text", "run `go test ./...` now\n", 80, []string{"run go test ./... now"}},
		{"long word is cut, not overflowing", strings.Repeat("x", 30), 28, []string{strings.Repeat("x", 20), strings.Repeat("x", 10)}},
		{"code line wider than the room is cut", "```\n" + strings.Repeat("y", 25) + "\n```\n", 28, []string{"  " + strings.Repeat("y", 18), "  " + strings.Repeat("y", 7)}},
		{"code tabs become spaces", "```\n\tx\n```\n", 80, []string{"      x"}},
		{"centred column", "| h |\n|:-:|\n| abc |\n", 80, []string{"  h", "─────", " abc"}},
		{"short row is padded with empty cells", "| a | b |\n|---|---|\n| 1 |\n", 80, []string{" a │ b", "───┼───", " 1 │"}},
		{"empty document", "", 80, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, lines(t, tc.in, tc.width, "dark")); diff != "" {
				t.Errorf("Render(%q, %d) (-want +got):\n%s", tc.in, tc.width, diff)
			}
		})
	}
}

// TestRenderPlain: without colour the Markdown markers stay, so that the
// text reads the same in a log or a pipe, and no escape sequence is sent.
func TestRenderPlain(t *testing.T) {
	in := "# T\n\nSome **bold**, *it*, ~~old~~ and `code`.\n\n- a\n\n> q\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	th, _ := Named("notty")
	out := Render(in, 80, th)
	if strings.Contains(out, "\x1b[") {
		t.Errorf("plain output has escape sequences: %q", out)
	}
	want := []string{"# T", "", "Some **bold**, *it*, ~~old~~ and `code`.", "", "- a", "", "> q", "", " a | b", "---|---", " 1 | 2"}
	if diff := cmp.Diff(want, lines(t, in, 80, "notty")); diff != "" {
		t.Errorf("plain render (-want +got):\n%s", diff)
	}
}

// TestRenderStyles: each kind of markup turns on its own attribute, and
// a space inside a code span keeps the span's background.
func TestRenderStyles(t *testing.T) {
	th, _ := Named("dark")
	for _, tc := range []struct{ in, want string }{
		{"**b**", "\x1b[1mb\x1b[m"},
		{"*i*", "\x1b[3mi\x1b[m"},
		{"~~s~~", "\x1b[9ms\x1b[m"},
		{"`a b`", "\x1b[38;5;203;48;5;236ma\x1b[m\x1b[38;5;203;48;5;236m \x1b[m\x1b[38;5;203;48;5;236mb\x1b[m"},
		{"## H", "\x1b[1;38;5;39m##\x1b[m\x1b[1;38;5;39m \x1b[m\x1b[1;38;5;39mH\x1b[m"},
	} {
		if got := strings.TrimPrefix(Render(tc.in, 80, th), "  "); got != tc.want {
			t.Errorf("Render(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHighlight(t *testing.T) {
	th, _ := Named("dark")
	kw := func(s string) string { return style{fg: th.Keyword}.paint(s) }
	str := func(s string) string { return style{fg: th.String}.paint(s) }
	com := func(s string) string { return style{fg: th.Comment, italic: true}.paint(s) }
	num := func(s string) string { return style{fg: th.Number}.paint(s) }
	txt := func(s string) string { return style{fg: th.CodeBlock}.paint(s) }
	for _, tc := range []struct{ line, lang, want string }{
		{`return "a" // why`, "go", kw("return") + txt(" ") + str(`"a"`) + txt(" ") + com("// why")},
		{`x = 42  # note`, "python", txt("x") + txt(" = ") + num("42") + txt("  ") + com("# note")},
		{`echo "$a#b"`, "sh", kw("echo") + txt(" ") + str(`"$a#b"`)},
		{`a#b`, "sh", txt("a") + txt("#") + txt("b")},
		{`return "x"`, "", txt("return") + txt(` "`) + txt("x") + txt(`"`)},
		{`"unterminated`, "js", str(`"unterminated`)},
	} {
		if got := highlight(tc.line, tc.lang, th); got != tc.want {
			t.Errorf("highlight(%q, %q) =\n%q\nwant\n%q", tc.line, tc.lang, got, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	if diff := cmp.Diff([]string{"ascii", "dark", "dracula", "light", "notty"}, Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
}

// FuzzRender: any input renders without panicking, and no line is wider
// than the terminal.
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"# h\n\n- a\n  - b\n\n> q\n\n```go\nx\n```\n",
		"| a | b |\n|---|---|\n| " + strings.Repeat("long ", 40) + " | x |\n",
		"**unclosed *mixed `code\n\n1. a\n2) b",
		"<div>\nhtml\n</div>\n\n![img](u) [l](v 't')",
		"- [x] t\n\n---\n\n漢字漢字漢字 wide",
	} {
		f.Add(s, 40)
	}
	f.Fuzz(func(t *testing.T, src string, width int) {
		width = 20 + abs(width)%200
		for _, name := range Names() {
			th, _ := Named(name)
			for _, l := range strings.Split(Render(src, width, th), "\n") {
				if w := ansi.StringWidth(l); w > width {
					t.Fatalf("theme %s: line %q is %d cells, terminal %d", name, l, w, width)
				}
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func BenchmarkRender(b *testing.B) {
	src := strings.Repeat("Some **bold** text with `code` and a [link](https://x.dev).\n\n- one\n- two\n\n```go\nfunc f() int { return 1 }\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n", 10)
	th, _ := Named("dark")
	b.ReportAllocs()
	for b.Loop() {
		Render(src, 100, th)
	}
}

// TestDeepNesting: lists, quotes and tables nested or wide past the room
// still fit the terminal.
func TestDeepNesting(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	b.WriteString("\n" + strings.Repeat("> ", 20) + "deep quote\n")
	b.WriteString("\n" + strings.Repeat("| a ", 12) + "|\n" + strings.Repeat("|---", 12) + "|\n" + strings.Repeat("| 1 ", 12) + "|\n")
	th, _ := Named("dark")
	for _, l := range strings.Split(Render(b.String(), 20, th), "\n") {
		if w := ansi.StringWidth(l); w > 20 {
			t.Errorf("line %q is %d cells, terminal 20", ansi.Strip(l), w)
		}
	}
}
