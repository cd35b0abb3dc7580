package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIRewindBash: the model's sandboxed bash commands edit a file (in
// place, and by sed -i's rename) and create another over two prompts;
// /rewind to before the first prompt, code only, puts the file back as it
// was and removes the one created (issue 36 item 3: bash in the sandbox
// is recorded, not only write and edit).
func TestTUIRewindBash(t *testing.T) {
	e := newE2E(t, `{"text":"Step one.","tool_calls":[{"name":"bash","input":{"command":"sed -i s/one/ONE/ notes.txt && printf 'made\\n' > sub/made.txt"}}]}
{"text":"First done."}
{"text":"Step two.","tool_calls":[{"name":"bash","input":{"command":"printf 'more\\n' >> notes.txt"}}]}
{"text":"Second done."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	writeFile(t, filepath.Join(e.work, "notes.txt"), "one\ntwo\n")
	writeFile(t, filepath.Join(e.work, "sub", "keep.txt"), "kept\n")
	e.start(t, 120, 40, "--no-extensions", "--allowedTools", "Bash")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("first change")
	e.waitFor("the first turn", contains("First done."))
	e.send("second change")
	e.waitFor("the second turn", contains("Second done."))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "ONE\ntwo\nmore\n" {
		t.Fatalf("notes.txt = %q: the commands did not run as scripted", got)
	}
	e.keys("Escape")
	e.keys("Escape")
	e.waitFor("the prompts to rewind to", contains("? [Rewind] Go back to before which prompt?"),
		contains("1. first change"), contains("› 2. second change"))
	e.keys("Up")
	e.keys("Enter")
	e.waitFor("what to restore", contains(`Rewind to before "first change"?`), contains("3. Restore code"), contains("3 file(s) recorded from here on"))
	e.keys("Down")
	e.keys("Down")
	e.keys("Enter")
	e.waitFor("the rewind", contains("rewound: code: 1 file(s) restored, 1 removed"))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "one\ntwo\n" {
		t.Errorf("notes.txt = %q, want it as before the first prompt", got)
	}
	if _, err := os.Stat(filepath.Join(e.work, "sub", "made.txt")); err == nil {
		t.Errorf("sub/made.txt was created by bash after the checkpoint and is still there")
	}
	if got := readFile(t, filepath.Join(e.work, "sub", "keep.txt")); got != "kept\n" {
		t.Errorf("sub/keep.txt = %q, want it untouched", got)
	}
}
