package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIEditShowsDiff: an edit the model makes shows under the call as a
// diff — the changed line's number, "-" before the old text and "+"
// before the new — not only "replaced 1 occurrence" (issue 23, item 1).
func TestTUIEditShowsDiff(t *testing.T) {
	e := newE2E(t, `{"text":"Editing.","tool_calls":[{"name":"edit","input":{"path":"notes.txt","old_string":"beta","new_string":"BETA"}}]}
{"text":"Edited."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	writeFile(t, filepath.Join(e.work, "notes.txt"), "alpha\nbeta\ngamma\n")
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("change beta")
	e.waitFor("the diff under the edit",
		contains("edited notes.txt: replaced 1 occurrence (line 2)"),
		contains("1 line added, 1 removed"),
		matches(`(?m)│ 1   alpha\s*$`),
		matches(`(?m)│ 2 - beta\s*$`),
		matches(`(?m)│ 2 \+ BETA\s*$`),
		matches(`(?m)│ 3   gamma\s*$`),
		contains("Edited."))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "alpha\nBETA\ngamma\n" {
		t.Errorf("notes.txt = %q", got)
	}
}
