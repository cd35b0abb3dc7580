package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/daemon"
)

// A line too wide for the screen breaks at spaces, and goes on under
// its text: a table row's second column, or its indentation.
func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		limit      int
		want       []string
	}{
		{"fits", "short line", 20, []string{"short line"}},
		{"prose breaks at spaces", "the quick brown fox jumps", 12,
			[]string{"the quick", "brown fox", "jumps"}},
		{"a table row goes on under its second column", "/mode [NAME]  show or switch to bypassPermissions", 32,
			[]string{"/mode [NAME]  show or switch to", "              bypassPermissions"}},
		{"an indented row too", "  ctrl+c  clear the input, else interrupt", 24,
			[]string{"  ctrl+c  clear the", "          input, else", "          interrupt"}},
		{"a word longer than the line is cut", "see docs/averylongpathname.md", 12,
			[]string{"see", "docs/averylo", "ngpathname.m", "d"}},
		{"a hyphen is a place to break", "see docs/a-long-path-name.md", 16,
			[]string{"see docs/a-long-", "path-name.md"}},
		{"a column past half the width hangs at the indentation", "  a-long-command-name-here  its help text", 30,
			[]string{"  a-long-command-name-here", "  its help text"}},
		{"styles are kept", "\x1b[2mone two three\x1b[m", 8,
			[]string{"\x1b[2mone two", "three\x1b[m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapLine(tc.line, tc.limit)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrapLine(%q, %d) (-want +got):\n%s", tc.line, tc.limit, diff)
			}
			for _, l := range got {
				if w := ansi.StringWidth(l); w > tc.limit {
					t.Errorf("line %q is %d cells, over %d", l, w, tc.limit)
				}
			}
		})
	}
}

// /help at 120 columns and the daemon's header at 100 break no word:
// every word of them is whole on the screen ("lifecycle",
// "bypassPermissions", "docs/keys.md"), each line narrower than the
// screen.
func TestTranscriptBreaksNoWord(t *testing.T) {
	dir := t.TempDir()
	h := openHarness(t, dir, filepath.Join(dir, "base"), `{"text":"x"}`, false, 120)
	h.typeText("/help")
	h.press(tea.KeyEnter, 0)
	h.until("/help", isWorkDone)
	res, err := h.m.hs.Slash(t.Context(), "/help")
	if err != nil {
		t.Fatal(err)
	}
	help := res.Output + keysHelp
	if !strings.Contains(help, "lifecycle") || !strings.Contains(help, "bypassPermissions") {
		t.Fatalf("/help no longer has the words that were cut; pick others:\n%s", help)
	}
	screen := h.transcript()
	checkWords(t, "/help at 120 columns", help, screen, 120)

	h.m.entries = nil
	h.m.link = &daemon.Link{} // in the daemon: the header says ctrl+d detaches
	header := h.m.header("0.1.0-dev")
	h.m.link = nil
	h.m.print(header)
	checkWords(t, "the daemon's header at 100 columns", ansi.Strip(header), ansi.Strip(strings.Join(h.m.transcriptText(0, 100), "\n")), 100)
}

// checkWords says which words of text are not whole on screen, and
// which lines are as wide as the screen.
func checkWords(t *testing.T, what, text, screen string, width int) {
	t.Helper()
	shown := map[string]bool{}
	for _, f := range strings.Fields(screen) {
		shown[f] = true
	}
	for _, w := range strings.Fields(text) {
		if !shown[w] {
			t.Errorf("%s: the word %q is broken:\n%s", what, w, screen)
		}
	}
	for _, l := range strings.Split(screen, "\n") {
		if ansi.StringWidth(l) >= width {
			t.Errorf("%s: line %q fills the width %d", what, l, width)
		}
	}
}
