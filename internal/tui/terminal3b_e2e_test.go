package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// More end-to-end tests of issue 36 ("Terminal III"), through the real
// binary under tmux against the scripted model.

// TestTUITranscriptView: ctrl+o opens the whole transcript full-screen
// with every tool output in full (not only the last collapsed one); g
// goes to its top, G to its end, esc back to the prompt (item 4).
func TestTUITranscriptView(t *testing.T) {
	e := newE2E(t, `{"text":"Counting.","tool_calls":[{"name":"bash","input":{"command":"seq 1 12"}},{"name":"bash","input":{"command":"seq 101 130"}}]}
{"text":"Counted."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.start(t, 100, 20, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("count")
	e.waitFor("both outputs collapsed", contains("Counted."), contains("… 9 more lines"), contains("… 27 more lines"))
	e.keys("C-o")
	e.waitFor("the view at its end, the last output in full",
		contains("transcript · lines"), matches(`(?m)^  │ 130\s*$`), matches(`(?m)^  │ 120\s*$`), absent("Ask anything"))
	e.keys("g")
	e.waitFor("the top, the first output in full",
		matches(`(?m)^› count\s*$`), matches(`(?m)^  │ 12\s*$`), matches(`(?m)transcript · lines 1–19 of`), absent("│ 130"))
	e.keys("G")
	e.waitFor("the end again", matches(`(?m)^  │ 130\s*$`), absent("› count"))
	e.keys("Escape")
	e.waitFor("back at the prompt", contains("Ask anything"), contains("Counted."), absent("transcript · lines"))
}

// TestTUIMentionList: typing @src/ma lists the matching project files
// under the input (what .gitignore ignores left out); down chooses the
// second, tab puts it in the input, and the message attaches it (item 5).
func TestTUIMentionList(t *testing.T) {
	e := newE2E(t, `{"text":"It is the map.","expect":{"last_user_contains":"MAPDATA"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	writeFile(t, filepath.Join(e.work, "src", "main.go"), "package main\n")
	writeFile(t, filepath.Join(e.work, "src", "map.txt"), "MAPDATA\n")
	writeFile(t, filepath.Join(e.work, "src", "other.go"), "package other\n")
	writeFile(t, filepath.Join(e.work, "build", "main_gen.go"), "package gen\n")
	writeFile(t, filepath.Join(e.work, ".gitignore"), "build/\n")
	e.start(t, 100, 24, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.keys("-l", "@main")
	e.waitFor("the matches of @main, the ignored one left out",
		matches(`(?m)^› src/main\.go\s*$`), absent("main_gen"), absent("other.go"))
	e.keys("C-u")
	e.keys("-l", "look at @src/ma")
	e.waitFor("the files under src/ that start with ma",
		matches(`(?m)^› src/main\.go\s*$`), matches(`(?m)^  src/map\.txt\s*$`), absent("other.go"))
	e.keys("Down")
	e.waitFor("the second chosen", matches(`(?m)^› src/map\.txt\s*$`))
	e.keys("Tab")
	e.waitFor("the path in the input, the list closed", contains("› look at @src/map.txt"), absent("src/main.go"))
	e.send("please")
	e.waitFor("the file attached and the answer", contains("It is the map."))
}

// TestTUICtrlBBackgroundsBash: ctrl+b while a bash command runs sends it
// to the background: the turn goes on at once with a result naming the
// shell and its output file, and the command runs on, writing all its
// output and how it ended to that file (item 11).
func TestTUICtrlBBackgroundsBash(t *testing.T) {
	e := newE2E(t, `{"text":"Starting it.","tool_calls":[{"name":"bash","input":{"command":"echo started; sleep 4; echo later-line"}}]}
{"text":"It runs in the background.","expect":{"last_tool_result_contains":"sent this command to the background: it runs on as shell bash_1"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	tmpdir := filepath.Join(e.tmp, "tmpdir")
	if err := os.MkdirAll(tmpdir, 0o755); err != nil {
		t.Fatal(err)
	}
	e.env = append(e.env, "TMPDIR="+tmpdir)
	e.start(t, 120, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("start the slow one")
	// Once it has run a second, the command is surely started (the
	// line shows from the tool call's start, before the shell runs).
	e.waitFor("the command running", matches(`bash echo started; sleep 4; echo later-line · [1-3]\.\ds`), contains("esc to interrupt"))
	e.keys("C-b")
	e.waitFor("the turn going on without waiting", contains("runs on in the background"), contains("It runs in the background."))
	files, _ := filepath.Glob(filepath.Join(tmpdir, "synaps-background-*", "bash_1.output"))
	if len(files) != 1 {
		t.Fatalf("background output files: %q", files)
	}
	if got := readFile(t, files[0]); strings.Contains(got, "later-line") {
		t.Fatalf("the command had ended before the turn went on:\n%s", got)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := readFile(t, files[0])
		if strings.Contains(got, "started\nlater-line\n") && strings.Contains(got, "[shell bash_1 ended: exit status 0]") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the background command's output file:\n%s", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTUIStatusLineCommand: tui.status_command runs at start and after
// each turn, fed Claude Code's statusLine payload; its first line shows
// under the input. Claude Code's statusLine in ~/.claude/settings.json
// is read too, and a failing command is said once (item 14).
func TestTUIStatusLineCommand(t *testing.T) {
	e := newE2E(t, `{"text":"First answer."}
{"text":"Second answer."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	script := filepath.Join(e.tmp, "status.sh")
	writeFile(t, script, `n=$(cat "$0.count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$0.count"
cat > "$0.payload"
echo "my status run $n"
echo "a second line"
`)
	writeFile(t, filepath.Join(e.base, "config"), "tui.status_command = sh "+script+"\n")
	e.start(t, 100, 24, "--no-extensions")
	e.waitFor("the status line under the input", matches(`(?m)^› .*\n  my status run 1\s*$|(?m)^my status run 1\s*$`), absent("a second line"))
	e.send("hello")
	e.waitFor("refreshed after the turn", contains("First answer."), contains("my status run 2"))
	payload := readFile(t, script+".payload")
	for _, want := range []string{`"session_id":"`, `"cwd":"` + e.work + `"`, `"model":{`, `"workspace":{"current_dir":"` + e.work, `"cost":{"total_cost_usd":`} {
		if !strings.Contains(payload, want) {
			t.Errorf("payload lacks %s:\n%s", want, payload)
		}
	}

	// Claude Code's settings, with a command that fails: said once.
	e.tmux.run("kill-server")
	writeFile(t, filepath.Join(e.base, "config"), "")
	writeFile(t, filepath.Join(e.tmp, "home", ".claude", "settings.json"), `{"statusLine":{"type":"command","command":"echo broken >&2; exit 3"}}`)
	e.start(t, 250, 24, "--no-extensions")
	e.waitFor("the failure said", contains("the status line command ("), contains("settings.json: statusLine) failed (exit status 3): broken"))
	e.send("hello")
	e.waitFor("the turn", contains("First answer."))
	if n := strings.Count(e.capture(), "settings.json: statusLine) failed"); n != 1 {
		t.Errorf("the failure was said %d times:\n%s", n, e.capture())
	}
}

// TestTUIModelPicker: /model without a name opens a picker of the models
// it can switch to, the one in use marked; down and enter switch to the
// configured one, which answers the next message (item 14).
func TestTUIModelPicker(t *testing.T) {
	e := newE2E(t, `{"text":"From the first model."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	other := filepath.Join(e.work, "other.jsonl")
	writeFile(t, other, `{"text":"From the other model."}
`)
	writeFile(t, filepath.Join(e.base, "config"), "model = script:"+other+"\n")
	e.start(t, 200, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("/model")
	e.waitFor("the picker, the model in use chosen and marked",
		contains("models · ↑/↓ choose"), matches(`(?m)^› \* script:\S+script\.jsonl\s+the current model\s*$`),
		matches(`(?m)^\s+script:\S+other\.jsonl\s+configured in `), absent("Ask anything"))
	e.keys("Down")
	e.waitFor("the configured one chosen", matches(`(?m)^› {3}script:\S+other\.jsonl\s+configured in `))
	e.keys("Enter")
	e.waitFor("switched", contains("Ask anything"), absent("models · ↑/↓"))
	e.send("who answers?")
	e.waitFor("the other model answers", contains("From the other model."))
}
