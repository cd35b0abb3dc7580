package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
)

func TestInputSummary(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct {
		name, tool, input, want string
	}{
		{"bash command", "bash", `{"command":"echo hi"}`, "echo hi"},
		{"bash multi-line command", "bash", `{"command":"cd /tmp\nls -la"}`, "cd /tmp …"},
		{"bash escape sequences stripped", "bash", `{"command":"echo \u001b[31mred\u001b[0m"}`, "echo red"},
		{"read path", "read", `{"path":"main.go","offset":10}`, "main.go"},
		{"write path", "write", `{"path":"a.txt","content":"lots"}`, "a.txt"},
		{"edit path", "edit", `{"path":"b.go","old_string":"x","new_string":"y"}`, "b.go"},
		{"ls path", "ls", `{"path":"src"}`, "src"},
		{"ls default", "ls", `{}`, "."},
		{"grep pattern and path", "grep", `{"pattern":"TODO","path":"internal"}`, "TODO in internal"},
		{"grep pattern only", "grep", `{"pattern":"TODO"}`, "TODO"},
		{"find", "find", `{"pattern":"*.go"}`, "*.go"},
		{"load_skill", "load_skill", `{"name":"deploy"}`, "deploy"},
		{"extension tool, one string field", "weather", `{"city":"Oslo"}`, "Oslo"},
		{"extension tool, JSON", "weather", `{"city":"Oslo","days":3}`, `{"city":"Oslo","days":3}`},
		{"empty input", "weather", `{}`, ""},
		{"not JSON", "weather", `oops`, "oops"},
		{"long command cut", "bash", `{"command":"` + long + `"}`, strings.Repeat("x", 79) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, inputSummary(tt.tool, []byte(tt.input))); diff != "" {
				t.Errorf("inputSummary(%s, %s) (-want +got):\n%s", tt.tool, tt.input, diff)
			}
		})
	}
}

func TestPreview(t *testing.T) {
	tests := []struct {
		name  string
		out   string
		lines []string
		more  int
	}{
		{"empty", "", nil, 0},
		{"only newlines", "\n\n", nil, 0},
		{"one line", "hello\n", []string{"hello"}, 0},
		{"exactly three", "a\nb\nc", []string{"a", "b", "c"}, 0},
		{"collapsed", "a\nb\nc\nd\ne\n", []string{"a", "b", "c"}, 2},
		{"tabs and escapes", "\tx\u001b[1mbold\u001b[0m\r", []string{"    xbold"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, more := preview(tt.out, previewLines)
			if diff := cmp.Diff(tt.lines, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if more != tt.more {
				t.Errorf("more = %d, want %d", more, tt.more)
			}
		})
	}
}

func TestToolLines(t *testing.T) {
	tests := []struct {
		name string
		call agent.ToolCall
		want []string
	}{
		{
			name: "collapsed output",
			call: agent.ToolCall{Name: "bash", Input: []byte(`{"command":"seq 5"}`), Output: "1\n2\n3\n4\n5\n", Duration: 12 * time.Millisecond},
			want: []string{"✓ bash seq 5 · 12ms", "  │ 1", "  │ 2", "  │ 3", "  │ … 2 more lines (ctrl+o shows them)"},
		},
		{
			name: "one more line",
			call: agent.ToolCall{Name: "bash", Input: []byte(`{"command":"seq 4"}`), Output: "1\n2\n3\n4", Duration: 2 * time.Second},
			want: []string{"✓ bash seq 4 · 2.0s", "  │ 1", "  │ 2", "  │ 3", "  │ … 1 more line (ctrl+o shows them)"},
		},
		{
			name: "failed",
			call: agent.ToolCall{Name: "read", Input: []byte(`{"path":"nope"}`), Output: "no such file", IsError: true, Duration: time.Millisecond},
			want: []string{"✗ read nope · 1ms", "  │ no such file"},
		},
		{
			name: "blocked",
			call: agent.ToolCall{Name: "bash", Input: []byte(`{"command":"rm -rf /"}`), IsError: true, BlockedBy: "guard",
				Output: hook.BlockedMessage("guard", "rm -rf is not allowed")},
			want: []string{"✗ bash rm -rf / · <1ms", "  ✗ blocked by guard: rm -rf is not allowed"},
		},
		{
			name: "modified and replaced",
			call: agent.ToolCall{Name: "bash", Input: []byte(`{"command":"ls -a"}`), InputRequested: []byte(`{"command":"ls"}`),
				ModifiedBy: []string{"rewriter"}, ReplacedBy: []string{"redactor", "audit"}, Output: "[redacted]", Duration: 3 * time.Millisecond},
			want: []string{
				"✓ bash ls -a · 3ms",
				"  ✎ modified by rewriter (asked: ls)",
				"  ⇄ output replaced by redactor, audit",
				"  │ [redacted]",
			},
		},
		{
			name: "modified, same summary",
			call: agent.ToolCall{Name: "write", Input: []byte(`{"path":"a","content":"new"}`), InputRequested: []byte(`{"path":"a","content":"old"}`),
				ModifiedBy: []string{"fmt"}, Duration: 3 * time.Millisecond},
			want: []string{"✓ write a · 3ms", "  ✎ modified by fmt"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := toolLines(&tt.call, newStyles(), 0)
			for i := range got {
				got[i] = ansi.Strip(got[i])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("toolLines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolLinesFitWidth(t *testing.T) {
	call := agent.ToolCall{Name: "bash", Input: []byte(`{"command":"echo ` + strings.Repeat("y", 60) + `"}`), Output: strings.Repeat("z", 80)}
	for _, l := range toolLines(&call, newStyles(), 40) {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %q is %d cells wide, want at most 40", ansi.Strip(l), w)
		}
	}
}

func TestStatusText(t *testing.T) {
	tests := []struct {
		name, model, health, activity string
		usage                         llm.Usage
		want                          string
	}{
		{"fresh", "anthropic/claude-x", "ext 0 ok", "", llm.Usage{}, "anthropic/claude-x · tokens 0 in / 0 out · ext 0 ok"},
		{"thousands", "script:demo.jsonl", "ext 3 ok · 1 failed", "", llm.Usage{InputTokens: 12345, OutputTokens: 999},
			"script:demo.jsonl · tokens 12.3k in / 999 out · ext 3 ok · 1 failed"},
		{"millions, busy", "m", "ext 1 ok", "thinking", llm.Usage{InputTokens: 2_500_000, OutputTokens: 1000},
			"thinking · m · tokens 2.5M in / 1.0k out · ext 1 ok"},
		{"no extensions", "m", "", "", llm.Usage{InputTokens: 5, OutputTokens: 6}, "m · tokens 5 in / 6 out"},
		{"cached and priced", "anthropic/claude-sonnet-4-5", "", "", llm.Usage{InputTokens: 120_000, CacheReadTokens: 100_000, OutputTokens: 800, CostUSD: 0.0912},
			"anthropic/claude-sonnet-4-5 · tokens 120.0k in (100.0k cached) / 800 out · $0.0912"},
		{"some requests unpriced", "m", "", "", llm.Usage{InputTokens: 10, OutputTokens: 1, CostUSD: 1.5, Unpriced: 1},
			"m · tokens 10 in / 1 out · $1.50+"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, statusText(tt.model, tt.usage, tt.health, tt.activity)); diff != "" {
				t.Errorf("statusText (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "<1ms"},
		{7 * time.Millisecond, "7ms"},
		{1234 * time.Millisecond, "1.2s"},
		{125 * time.Second, "2m05s"},
	}
	for _, tt := range tests {
		if got := formatDuration(tt.d); got != tt.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// NO_COLOR gives the ASCII profile: printed lines keep no colour, only
// bold and faint.
func TestDownsampleNoColor(t *testing.T) {
	st := newStyles()
	s := st.ok.Render("ok") + st.bad.Render("bad") + st.tool.Render("bash") + st.dim.Render("dim")
	got := downsample(colorprofile.ASCII, s)
	if ansi.Strip(got) != "okbadbashdim" {
		t.Fatalf("text changed: %q", ansi.Strip(got))
	}
	for _, colour := range []string{"[31m", "[32m", "[36m", "38;", "[9"} {
		if strings.Contains(got, colour) {
			t.Errorf("ASCII output %q still has colour %q", got, colour)
		}
	}
	if plain := downsample(colorprofile.NoTTY, s); plain != "okbadbashdim" {
		t.Errorf("NoTTY output = %q, want plain text", plain)
	}
}

func TestMarkdownStyle(t *testing.T) {
	tests := []struct {
		name    string
		p       colorprofile.Profile
		environ []string
		want    string
	}{
		{"colour terminal", colorprofile.ANSI256, nil, "dark"},
		{"NO_COLOR", colorprofile.ASCII, []string{"NO_COLOR=1"}, "dark"},
		{"not a terminal", colorprofile.NoTTY, nil, "notty"},
		{"GLAMOUR_STYLE", colorprofile.ANSI256, []string{"GLAMOUR_STYLE=light"}, "light"},
		{"unknown GLAMOUR_STYLE", colorprofile.ANSI256, []string{"GLAMOUR_STYLE=/no/such.json"}, "dark"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markdownStyle(tt.p, tt.environ); got != tt.want {
				t.Errorf("markdownStyle = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMarkdownRender(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ASCII} {
		t.Run(p.String(), func(t *testing.T) {
			md := markdownView{style: markdownStyle(p, nil)}
			out := downsample(p, md.render("Some **bold** text.\n\n- one\n- two\n", 80))
			got := ansi.Strip(out)
			if strings.Contains(got, "**") {
				t.Errorf("markdown not rendered: %q", got)
			}
			for _, want := range []string{"bold", "one", "two"} {
				if !strings.Contains(got, want) {
					t.Errorf("rendered %q lacks %q", got, want)
				}
			}
			if !strings.Contains(out, "\x1b[1m") && !strings.Contains(out, ";1m") && !strings.Contains(out, "[1;") {
				t.Errorf("bold is not bold: %q", out)
			}
			if p == colorprofile.ASCII && strings.Contains(out, "38;") {
				t.Errorf("NO_COLOR output has colours: %q", out)
			}
			if strings.HasPrefix(got, "\n") || strings.HasSuffix(got, "\n") {
				t.Errorf("rendered %q keeps blank lines around it", got)
			}
			for _, l := range strings.Split(got, "\n") {
				if ansi.StringWidth(l) > 80 {
					t.Errorf("line %q wider than the terminal", l)
				}
			}
		})
	}
}

// TestMarkdownLayout: tables are as wide as their content, not the
// screen; a single line break stays one; code blocks, lists and long
// paragraphs still render as before. Lines are compared without colour
// and without the document's two-cell margin.
func TestMarkdownLayout(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, tc := range []struct {
		name, in string
		width    int
		want     []string
	}{
		{"table takes its content's width", "| a | bb |\n|---|---|\n| 1 | 22 |\n", 100,
			[]string{" a │ bb", "───┼────", " 1 │ 22"}},
		{"table amid text", "Before:\n\n| k | v |\n|:--|--:|\n| x | 10 |\n\nAfter.\n", 100,
			[]string{"Before:", "", " k │  v", "───┼────", " x │ 10", "", "After."}},
		{"single line break stays", "a\nb\n", 100, []string{"a", "b"}},
		{"paragraphs", "one\n\ntwo\n", 100, []string{"one", "", "two"}},
		{"list", "- x\n- y\n", 100, []string{"• x", "• y"}},
		{"code block keeps its lines", "```\nfunc f() {\n| a | b |\n|---|---|\n}\n```\n", 100,
			[]string{"  func f() {", "  | a | b |", "  |---|---|", "  }"}},
		{"long line still wraps", long, 44, []string{
			strings.Repeat("word ", 6) + "word",
			strings.Repeat("word ", 6) + "word",
			strings.Repeat("word ", 6) + "word",
			strings.Repeat("word ", 6) + "word",
			"word word",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := markdownView{style: markdownStyle(colorprofile.ANSI256, nil)}
			var got []string
			for _, l := range strings.Split(ansi.Strip(md.render(tc.in, tc.width)), "\n") {
				got = append(got, strings.TrimRight(strings.TrimPrefix(l, "  "), " "))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("render(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// TestMarkdownWideTable: a table wider than the terminal still fits it.
func TestMarkdownWideTable(t *testing.T) {
	cell := strings.Repeat("x", 50)
	in := "| " + cell + " | " + cell + " |\n|---|---|\n| 1 | 2 |\n"
	md := markdownView{style: markdownStyle(colorprofile.ANSI256, nil)}
	for _, l := range strings.Split(ansi.Strip(md.render(in, 80)), "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("line %q wider than the terminal", l)
		}
	}
}

func TestRetryLine(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		r    retryState
		want string
	}{
		{retryState{until: now.Add(4 * time.Second), why: retryReason(&llm.APIError{Status: 429}), n: 2, of: 5}, "retrying in 4s (429 rate limited), 2/5"},
		{retryState{until: now.Add(1500 * time.Millisecond), why: retryReason(&llm.APIError{Status: 529, Type: "overloaded_error"}), n: 1, of: 3}, "retrying in 2s (529 overloaded), 1/3"},
		{retryState{until: now.Add(-time.Second), why: retryReason(errors.New("connection reset\nmore")), n: 3, of: 3}, "retrying in 0s (connection reset …), 3/3"},
	} {
		if got := tc.r.line(now); got != tc.want {
			t.Errorf("line = %q, want %q", got, tc.want)
		}
	}
}

func TestFinishedBlocks(t *testing.T) {
	for _, tc := range []struct{ in, done string }{
		{"Still writing the first", ""},
		{"First **para**.\n\nSecond one gro", "First **para**.\n\n"},
		{"A\n\n- one\n- two\n\n- thr", "A\n\n- one\n- two\n\n"},
		{"Code:\n\n```go\nx := 1\n\ny := 2", "Code:\n\n"},
		{"Code:\n\n```go\nx := 1\n```\n\nAfter", "Code:\n\n```go\nx := 1\n```\n\n"},
	} {
		if got := tc.in[:finishedBlocks(tc.in)]; got != tc.done {
			t.Errorf("finishedBlocks(%q) keeps %q, want %q", tc.in, got, tc.done)
		}
	}
}
