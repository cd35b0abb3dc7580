package tui

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIResumePicker: `synaps --resume` without an id lists the saved
// sessions newest first, with their first prompt and message count;
// typing filters; enter resumes the chosen one, its conversation on the
// screen (issue 23, item 3). Esc leaves without starting anything.
// /resume inside a session opens the same picker.
func TestTUIResumePicker(t *testing.T) {
	e := newE2E(t, `{"text":"An answer from the script."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	for _, prompt := range []string{"older question about alpha", "newer question about beta"} {
		cmd := exec.Command(e.argv[0], append(e.argv[1:], "script:"+filepath.Join(e.work, "script.jsonl"), "--no-extensions", "-p", prompt)...)
		cmd.Dir, cmd.Env = e.work, e.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("synaps -p %q: %v\n%s", prompt, err, out)
		}
	}

	e.start(t, 100, 30, "--no-extensions", "--resume")
	e.waitFor("the picker, newest first",
		matches(`(?s)▸ just now\s+2 msgs  newer question about beta\s*\n\s+just now\s+2 msgs  older question about alpha`))
	e.keys("Escape")
	if code := e.waitExit(); code != "0" {
		t.Errorf("esc: exit code %s", code)
	}

	e.start(t, 100, 30, "--no-extensions", "--resume")
	e.waitFor("the picker", contains("newer question about beta"))
	e.keys("-l", "alpha")
	e.waitFor("the filtered list", contains("› alpha"), contains("older question about alpha"), absent("newer question about beta"))
	e.keys("Enter")
	e.waitFor("the resumed conversation",
		matches(`(?m)^› older question about alpha\s*$`), contains("An answer from the script."), contains("resumed"),
		absent("newer question about beta"))

	// Inside the session, /resume opens the same picker in the input's place.
	e.send("/resume")
	e.waitFor("the picker in the TUI", contains("resume a session · type to filter"), contains("newer question about beta"))
	e.keys("-l", "beta")
	e.waitFor("the filtered list", contains("› beta"))
	e.keys("Enter")
	e.waitFor("the other session resumed",
		matches(`(?m)^› newer question about beta\s*$`), absent("resume a session · type to filter"), contains("Ask anything"))
}
