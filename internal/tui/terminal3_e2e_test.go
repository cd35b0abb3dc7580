package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/sandbox"
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

// TestTUIReadOnlyBashRunsWithoutAsking: in default mode (no
// --allowedTools) a read-only bash line runs without a question, a
// command that changes things is asked about; with
// permissions.auto_allow_sandboxed = true in the config, a command the
// bash sandbox confines runs without one (item 1).
func TestTUIReadOnlyBashRunsWithoutAsking(t *testing.T) {
	e := newE2E(t, `{"text":"Looking.","tool_calls":[{"name":"bash","input":{"command":"seq 3 | sed -n 2p"}},{"name":"bash","input":{"command":"printf 'listed\\n'; ls -a > /dev/null"}}]}
{"text":"Now a change.","tool_calls":[{"name":"bash","input":{"command":"touch made.txt"}}]}
{"text":"Left alone."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.argv = []string{e.argv[0], "--model"} // default mode: no --allowedTools
	e.start(t, 120, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("look around")
	e.waitFor("the read-only lines run, the change asked about",
		matches(`(?m)^✓ bash seq 3 \| sed -n 2p · `), matches(`(?m)^  │ 2\s*$`),
		matches(`(?m)^✓ bash printf 'listed\\n'; ls -a > /dev/null · `), matches(`(?m)^  │ listed\s*$`),
		contains("Run bash touch made.txt? [y/N"))
	if strings.Contains(e.capture(), "Run bash seq") {
		t.Fatalf("a read-only line was asked about:\n%s", e.capture())
	}
	e.send("n")
	e.waitFor("the change refused", contains("Left alone."))
	if _, err := os.Stat(filepath.Join(e.work, "made.txt")); err == nil {
		t.Fatal("made.txt exists: the refused command ran")
	}

	// The sandbox stands for the question when the user says so.
	if sandbox.Detect().LandlockABI == 0 {
		t.Skip("the kernel cannot confine files (no Landlock): permissions.auto_allow_sandboxed leaves the question")
	}
	writeFile(t, filepath.Join(e.base, "config"), "permissions.auto_allow_sandboxed = true\n")
	writeFile(t, filepath.Join(e.work, "script.jsonl"), `{"text":"Now a change.","tool_calls":[{"name":"bash","input":{"command":"touch made.txt"}}]}
{"text":"Made it."}
`)
	e.start(t, 120, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("change it")
	e.waitFor("the confined command run without a question", matches(`(?m)^✓ bash touch made.txt · `), contains("Made it."), absent("Run bash touch"))
	if _, err := os.Stat(filepath.Join(e.work, "made.txt")); err != nil {
		t.Fatalf("made.txt: %v", err)
	}
}

// TestTUINarrowQuestionWraps: at 60 columns the permission question
// wraps instead of being cut, so its answers show (item 10).
func TestTUINarrowQuestionWraps(t *testing.T) {
	e := newE2E(t, `{"text":"Making it.","tool_calls":[{"name":"bash","input":{"command":"touch a-rather-long-file-name.txt"}}]}
{"text":"Made."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.argv = []string{e.argv[0], "--model"} // default mode: bash is asked about
	e.start(t, 60, 24, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("make the file")
	e.waitFor("the whole question, wrapped",
		contains("? permissions: default mode asks before bash"),
		matches(`(?m)^Run bash touch a-rather-long-file-name\.txt\? \[y/N/a = always\s*$`),
		matches(`(?m)^allow Bash\(touch:\*\)\]\s*$`))
	e.send("y")
	e.waitFor("the command run", contains("Made."))
	if _, err := os.Stat(filepath.Join(e.work, "a-rather-long-file-name.txt")); err != nil {
		t.Fatal(err)
	}
}

// TestTUIEditQuestionShowsDiff: in default mode the question before an
// edit shows the diff the edit would make, from the input that will run
// (the guard rewrote "draft" into "final"), before anything changes; a
// write's question shows the new file's lines (item 2).
func TestTUIEditQuestionShowsDiff(t *testing.T) {
	e := newE2E(t, `{"text":"Editing.","tool_calls":[{"name":"edit","input":{"path":"notes.txt","old_string":"beta","new_string":"draft"}}]}
{"text":"Writing.","tool_calls":[{"name":"write","input":{"path":"new.txt","content":"one\ntwo\n"}}]}
{"text":"Both done."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	guard := goBuild(t, repoRoot(t), filepath.Join(e.tmp, "guardext"), "./internal/tui/testdata/guardext")
	writeFile(t, filepath.Join(e.base, "plugins", "guard", ".synaps-plugin", "plugin.json"), fmt.Sprintf(
		`{"name":"guard","version":"0.1.0","extension":{"command":%q,"permissions":["hooks.before_tool_call"]}}`, guard))
	writeFile(t, filepath.Join(e.work, "notes.txt"), "alpha\nbeta\ngamma\n")
	e.argv = []string{e.argv[0], "--model"} // default mode: edits are asked about
	e.start(t, 180, 40)
	e.waitFor("the prompt", contains("Ask anything"), contains("ext 1 ok"))
	e.send("change beta")
	e.waitFor("the diff inside the question",
		contains("? permissions: default mode asks before edit"),
		matches(`(?m)│ 2 - beta\s*$`), matches(`(?m)│ 2 \+ final\s*$`), matches(`(?m)│ 1   alpha\s*$`),
		contains("Run edit notes.txt? [y/N"))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "alpha\nbeta\ngamma\n" {
		t.Fatalf("notes.txt changed before the answer: %q", got)
	}
	e.send("y")
	e.waitFor("the write's question with the new file",
		contains("Run write new.txt? [y/N"), matches(`(?m)│ 1 \+ one\s*$`), matches(`(?m)│ 2 \+ two\s*$`))
	e.send("y")
	e.waitFor("both done", contains("Both done."))
	if got := readFile(t, filepath.Join(e.work, "notes.txt")); got != "alpha\nfinal\ngamma\n" {
		t.Errorf("notes.txt = %q", got)
	}
}

// TestTUILongPastePlaceholder: a 400-line paste shows in the input as
// "[Pasted text +400 lines]", and the message sent carries the whole
// text (the script checks its first and last lines) (item 7).
func TestTUILongPastePlaceholder(t *testing.T) {
	e := newE2E(t, `{"text":"Read all of it.","expect":{"last_user_contains":"paste line 001\npaste line 002"}}
{"text":"And the end.","expect":{"last_user_contains":"paste line 400\n\nwhat do you make of it?"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	var lines []string
	for i := 1; i <= 400; i++ {
		lines = append(lines, fmt.Sprintf("paste line %03d", i))
	}
	paste := filepath.Join(e.tmp, "paste.txt")
	writeFile(t, paste, strings.Join(lines, "\n"))
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	if out, err := e.run("load-buffer", paste); err != nil {
		t.Fatalf("tmux load-buffer: %v\n%s", err, out)
	}
	if out, err := e.run("paste-buffer", "-p", "-t", "tui"); err != nil { // -p: bracketed, as a terminal pastes
		t.Fatalf("tmux paste-buffer: %v\n%s", err, out)
	}
	e.waitFor("the placeholder in the input", matches(`(?m)^› \[Pasted text \+400 lines\]\s*$`), absent("paste line 002"))
	e.keys("C-j")
	e.keys("C-j")
	e.keys("-l", "what do you make of it?")
	e.keys("Enter")
	e.waitFor("the whole paste sent, its placeholder shown",
		contains("Read all of it."), matches(`(?m)^› \[Pasted text \+400 lines\]\s*$`), absent("paste line 002"))
	// The same text again: the script checks the message's end.
	if out, err := e.run("paste-buffer", "-p", "-t", "tui"); err != nil {
		t.Fatalf("tmux paste-buffer: %v\n%s", err, out)
	}
	e.keys("C-j")
	e.keys("C-j")
	e.keys("-l", "what do you make of it?")
	e.keys("Enter")
	e.waitFor("the second answer", contains("And the end."), absent("error"))
}

// TestTUICtrlRSearch: Ctrl+R searches the input history: typing shows
// the newest input containing the text, Ctrl+R again an older one,
// Enter sends it; Esc gives back what was typed before (item 6).
func TestTUICtrlRSearch(t *testing.T) {
	e := newE2E(t, `{"text":"one."}
{"text":"two."}
{"text":"three."}
{"text":"four.","expect":{"last_user_contains":"first alpha question"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	for i, q := range []string{"first alpha question", "second beta question", "third alpha again"} {
		e.send(q)
		e.waitFor("answer "+q, contains([]string{"one.", "two.", "three."}[i]), absent("esc to interrupt"))
	}
	e.keys("-l", "draft")
	e.keys("C-r")
	e.waitFor("the search open", contains("reverse search: _"))
	e.keys("-l", "alpha")
	e.waitFor("the newest match", contains("reverse search: alpha_"), matches(`(?m)^› third alpha again\s*$`))
	e.keys("C-r")
	e.waitFor("the older match", matches(`(?m)^› first alpha question\s*$`))
	e.keys("Escape")
	e.waitFor("the draft back", matches(`(?m)^› draft\s*$`), absent("reverse search"))
	e.keys("C-c")
	e.keys("C-r")
	e.keys("-l", "zzz")
	e.waitFor("no match", contains("reverse search: zzz_  no match"))
	e.keys("BSpace", "BSpace", "BSpace")
	e.keys("-l", "first")
	e.waitFor("the match", matches(`(?m)^› first alpha question\s*$`))
	e.keys("Enter")
	e.waitFor("the match sent", contains("four."), func(s string) bool { return strings.Count(s, "› first alpha question") == 2 }, absent("reverse search"))
}
