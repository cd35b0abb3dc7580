package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTUIRewind: two prompts change files with write and edit; Esc Esc on
// the empty input lists the prompts, and going back to before the first
// one, code and conversation, puts notes.txt back as it was, removes the
// files the turns created, and puts the first prompt back in the input;
// sent again, it starts a conversation without the old turns (issue 36
// item 3).
func TestTUIRewind(t *testing.T) {
	e := newE2E(t, `{"text":"Step one.","tool_calls":[{"name":"write","input":{"path":"a.txt","content":"A\n"}},{"name":"edit","input":{"path":"notes.txt","old_string":"one","new_string":"ONE"}}]}
{"text":"First done."}
{"text":"Step two.","tool_calls":[{"name":"write","input":{"path":"sub/b.txt","content":"B\n"}},{"name":"edit","input":{"path":"notes.txt","old_string":"ONE","new_string":"UNO"}}]}
{"text":"Second done."}
{"text":"Again, from the start.","expect":{"last_user_contains":"first change"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	writeFile(t, filepath.Join(e.work, "notes.txt"), "one\ntwo\n")
	e.start(t, 120, 40, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("first change")
	e.waitFor("the first turn", contains("First done."))
	e.send("second change")
	e.waitFor("the second turn", contains("Second done."))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "one\ntwo\n" && got != "UNO\ntwo\n" {
		t.Fatalf("notes.txt = %q", got)
	}
	e.keys("Escape")
	e.keys("Escape")
	e.waitFor("the prompts to rewind to", contains("? [Rewind] Go back to before which prompt?"),
		contains("1. first change"), contains("› 2. second change"))
	e.keys("Up")
	e.keys("Enter")
	e.waitFor("what to restore", contains(`Rewind to before "first change"?`), contains("1. Restore code and conversation"))
	e.keys("Enter")
	e.waitFor("the rewind", contains("rewound: code: 1 file(s) restored, 2 removed"), contains("conversation: back to before \"first change\" (0 message(s) kept"))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "one\ntwo\n" {
		t.Errorf("notes.txt = %q, want it as before the first prompt", got)
	}
	for _, f := range []string{"a.txt", "sub/b.txt"} {
		if _, err := os.Stat(filepath.Join(e.work, f)); err == nil {
			t.Errorf("%s was created after the checkpoint and is still there", f)
		}
	}
	e.keys("Enter") // the first prompt, back in the input
	e.waitFor("the prompt sent again", contains("Again, from the start."))
	screen := e.capture()
	m := regexp.MustCompile(`kept, session\s+(\S+)\)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no new session id in the rewind's line:\n%s", screen)
	}
	if s := e.sessionText(t, m[1]); strings.Contains(s, "Second done.") || strings.Contains(s, "First done.") || !strings.Contains(s, "Again, from the start.") {
		t.Errorf("the rewound session holds the old turns, or not the new one:\n%s", s)
	}
}
