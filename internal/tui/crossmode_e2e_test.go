package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCrossModeSameSession: one scenario — a message, a tool call, its
// result, an answer — driven through the terminal UI, -p, chat and rpc
// gives the same session file, line for line, but for what differs by
// nature (the session id, the times). Every front-end is a client of
// the same session host (issue 24, item 1).
func TestCrossModeSameSession(t *testing.T) {
	e := newE2E(t, `{"text":"Let me look.","tool_calls":[{"name":"bash","input":{"command":"echo seen-by-all"}}]}
{"text":"The same answer everywhere.","expect":{"last_tool_result_contains":"seen-by-all"}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	bin := e.argv[0]
	model := "script:" + filepath.Join(e.work, "script.jsonl")
	common := []string{"--model", model, "--allowedTools", "Bash Edit", "--no-extensions"}
	const prompt = "check the repo"

	// Each mode writes a session of its own in the same base directory;
	// sessionsNow lists them, so each run's new file is found.
	sessionsNow := func() []string {
		files, _ := filepath.Glob(filepath.Join(e.base, "sessions", "*.jsonl"))
		return files
	}
	newSession := func(mode string, before []string) string {
		t.Helper()
		for _, f := range sessionsNow() {
			if !slices.Contains(before, f) {
				return readFile(t, f)
			}
		}
		t.Fatalf("%s wrote no session file", mode)
		return ""
	}
	run := func(mode, stdin string, args ...string) string {
		t.Helper()
		before := sessionsNow()
		cmd := exec.Command(bin, append(args, common...)...)
		cmd.Dir, cmd.Env = e.work, append(os.Environ(), e.env...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "everywhere.") {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		return newSession(mode, before)
	}
	files := map[string]string{
		"-p":   run("-p", "", "-p", prompt),
		"chat": run("chat", prompt+"\n", "chat"),
		"rpc":  run("rpc", `{"type":"prompt","id":"1","message":"`+prompt+`"}`+"\n", "rpc"),
	}

	before := sessionsNow()
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send(prompt)
	e.waitFor("the answer", contains("The same answer everywhere."))
	e.keys("C-c", "C-c")
	if code := e.waitExit(); code != "0" {
		t.Fatalf("TUI exit code %s", code)
	}
	files["TUI"] = newSession("TUI", before)

	want := normalise(files["-p"])
	if n := strings.Count(want, "\n"); n != 6 {
		t.Fatalf("-p's session has %d lines, want a header, 4 messages and the call's report:\n%s", n, want)
	}
	for _, mode := range []string{"chat", "rpc", "TUI"} {
		if diff := cmp.Diff(want, normalise(files[mode])); diff != "" {
			t.Errorf("%s's session differs from -p's (-p +%s):\n%s", mode, mode, diff)
		}
	}
}

// normalise blanks what differs between two runs of one scenario: times
// and the session id.
func normalise(s string) string {
	s = regexp.MustCompile(`"time":"[^"]+"`).ReplaceAllString(s, `"time":"T"`)
	return regexp.MustCompile(`"id":"\d{8}-\d{6}-[a-z0-9]+"`).ReplaceAllString(s, `"id":"ID"`)
}
