package tool

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCapOutput(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"short", "hello", 10, "hello"},
		{"within the note slack", strings.Repeat("x", 10+OutputNoteSlack), 10, strings.Repeat("x", 10+OutputNoteSlack)},
		{"head and tail kept", "HEAD" + strings.Repeat("-", 2000) + "TAIL", 8, "HEAD\n…[2000 bytes truncated]…\nTAIL"},
		// "é" is two bytes; a cut inside it moves to the rune's edge.
		{"no split rune", "aé" + strings.Repeat("-", 2000) + "éb", 4, "a\n…[2004 bytes truncated]…\nb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CapOutput(tc.in, tc.max)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("CapOutput (-want +got):\n%s", diff)
			}
			if !utf8.ValidString(got) {
				t.Errorf("invalid UTF-8: %q", got)
			}
		})
	}
	big := strings.Repeat("y", 4<<20)
	if got := CapOutput(big, 0); len(got) > DefaultMaxOutput+OutputNoteSlack {
		t.Errorf("default cap: %d bytes", len(got))
	}
}
