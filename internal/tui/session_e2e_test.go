package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIEmptyLaunchesSaveNoSession: a session is saved at its first
// message, so after one real session and two launches that send nothing
// there is one session file, and --continue opens on the real
// conversation (issue 23, item 2).
func TestTUIEmptyLaunchesSaveNoSession(t *testing.T) {
	e := newE2E(t, `{"text":"The real answer."}
{"text":"The follow-up answer."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	// sessions lists the session files and the session index's entries
	// (sessions/index/ID.json): an empty launch must add to neither.
	sessions := func() []string {
		var names []string
		for _, dir := range []string{"sessions", filepath.Join("sessions", "index")} {
			entries, _ := os.ReadDir(filepath.Join(e.base, dir))
			for _, en := range entries {
				if !en.IsDir() {
					names = append(names, en.Name())
				}
			}
		}
		return names
	}

	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("the real question")
	e.waitFor("the answer", contains("The real answer."))
	e.send("/quit")
	if code := e.waitExit(); code != "0" {
		t.Fatalf("exit code %s", code)
	}
	real := resumeID(t, e.capture())

	for i := 0; i < 2; i++ {
		e.start(t, 100, 30, "--no-extensions")
		e.waitFor("the prompt", contains("Ask anything"))
		e.send("/quit")
		if code := e.waitExit(); code != "0" {
			t.Fatalf("empty launch %d: exit code %s", i+1, code)
		}
		if screen := e.capture(); strings.Contains(screen, "resume this session") {
			t.Errorf("empty launch %d offers to resume a session it did not save:\n%s", i+1, screen)
		}
	}
	if got := sessions(); len(got) != 2 || got[0] != real+".jsonl" || got[1] != real+".json" {
		t.Fatalf("session files and index entries after two empty launches: %v; want only %s.jsonl and its index entry", got, real)
	}

	e.start(t, 100, 30, "--no-extensions", "--continue")
	e.waitFor("the real session, resumed", contains("the real question"), contains("The real answer."))
}
