package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of issue 36 ("Terminal III"), one per item, through
// the real binary under tmux against the scripted model.

// tinyPNG is a 1x1 PNG's first bytes: enough for the file's kind.
const tinyPNG = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"

// TestTUIDraggedPathFirst: a picture's path at the start of the input
// (dragged into the terminal, then a question typed) is a message that
// attaches the picture, not an unknown slash command; so is one pasted
// quoted, as terminals quote a path with a space (item 8).
func TestTUIDraggedPathFirst(t *testing.T) {
	e := newE2E(t, `{"text":"A tiny picture.","expect":{"last_user_contains":"what is this?"}}
{"text":"The spaced one.","expect":{"last_user_contains":"and this one?"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	shot := filepath.Join(e.tmp, "shots", "shot.png")
	spaced := filepath.Join(e.tmp, "shots", "my shot.png")
	writeFile(t, shot, tinyPNG)
	writeFile(t, spaced, tinyPNG)
	e.start(t, 120, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send(shot + " what is this?")
	e.waitFor("the picture attached and the message answered",
		contains("attached "+shot+" (image/png picture, 1 KB)"), contains("A tiny picture."), absent("unknown command"))
	e.send("'" + spaced + "' and this one?")
	e.waitFor("the quoted picture attached and answered",
		contains("attached "+spaced+" (image/png picture, 1 KB)"), contains("The spaced one."), absent("unknown command"))
}
