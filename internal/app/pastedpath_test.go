package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIsSlashLeadingPath: an input starting with an existing file's
// path, as a terminal pastes a file dragged into it (bare, quoted or
// escaped), is a message, not a slash command (issue 36, item 8).
func TestIsSlashLeadingPath(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"shot.png", "my shot.png", `it's.png`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shot := filepath.Join(dir, "shot.png")
	spaced := filepath.Join(dir, "my shot.png")
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"/help", true},
		{"/model script:x", true},
		{"/extensions reload", true},
		{"  /quit", true},
		{"/tmp", true}, // a root directory: a plugin may name a command so
		{"/run now", true},
		{filepath.Join(dir, "missing.png") + " what is this?", true},
		{shot, false},
		{shot + " what is wrong here?", false},
		{"  " + shot + "\twhat?", false},
		{filepath.Join(dir, `my\ shot.png`) + " and this?", false},
		{"'" + spaced + "' and this?", false},
		{`"` + spaced + `" and this?`, false},
		{filepath.Join(dir, `it\'s.png`) + " quoted", false},
		{dir + "/ a directory", false},
		{"what is " + shot, false},
		{"plain words", false},
	} {
		if got := IsSlash(tc.line); got != tc.want {
			t.Errorf("IsSlash(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestPastedWord(t *testing.T) {
	for _, tc := range []struct{ in, word, rest string }{
		{"/a/b c", "/a/b", " c"},
		{`/a/my\ shot.png x`, "/a/my shot.png", " x"},
		{`'/a/my shot.png' x`, "/a/my shot.png", " x"},
		{`"/a/my \"q\".png" x`, `/a/my "q".png`, " x"},
		{`'/a/open`, "/a/open", ""},
		{`/a/b\`, `/a/b\`, ""},
		{"", "", ""},
	} {
		w, r := PastedWord(tc.in)
		if diff := cmp.Diff([]string{tc.word, tc.rest}, []string{w, r}); diff != "" {
			t.Errorf("PastedWord(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
