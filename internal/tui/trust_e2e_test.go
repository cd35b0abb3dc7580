package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/synaps-cli/synaps/internal/app"
)

// TestTUITrustDialogShowsTheChange: a trusted project whose hook was
// edited afterwards opens on the trust dialog, which names the changed
// hook and shows the line that changed; "trust once" enables it for the
// session (the logger then runs) without recording it, so the next
// session asks again.
func TestTUITrustDialogShowsTheChange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and drives tmux")
	}
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux); the TUI end-to-end test needs it")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	argv := tuiCommand(t, root, tmp)
	base := filepath.Join(tmp, "base")
	work := filepath.Join(tmp, "work")
	settings := filepath.Join(work, ".claude", "settings.json")
	writeFile(t, settings, `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo logged >> \"$CLAUDE_PROJECT_DIR/log\""}]}]}}`)
	if _, err := app.TrustItems(base, work); err != nil {
		t.Fatal(err)
	}
	writeFile(t, settings, `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo edited >> \"$CLAUDE_PROJECT_DIR/log\""}]}]}}`)
	script := filepath.Join(tmp, "script.jsonl")
	writeFile(t, script, `{"text":"Running.","tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}
{"text":"ran"}
`)
	env := []string{"HOME=" + filepath.Join(tmp, "home"), "SYNAPS_BASE_DIR=" + base, "TERM=xterm-256color"}
	tm := startTmux(t, tmuxPath, tmp, work, env, append(argv, "script:"+script))

	tm.waitFor("the trust dialog with the difference",
		contains("~ hook PostToolUse Bash (.claude/settings.json) · changed since trusted"),
		contains(`- …"command":"echo logged >> \"$CLAUDE_PROJECT_DIR/log\""`), contains(`+ …"command":"echo edited >> \"$CLAUDE_PROJECT_DIR/log\""`),
		contains("1 item changed since you trusted this project. Approve? [y = trust / o = trust once / N = don't]"))
	tm.send("o")
	tm.waitFor("trusted for the session", contains("trusted "+work+" for this session only"), contains("reloaded"))
	tm.send("run it")
	tm.waitFor("the answer", contains("ran"))
	if data, err := os.ReadFile(filepath.Join(work, "log")); err != nil || string(data) != "edited\n" {
		t.Errorf("the hook trusted once did not run: %q, %v", data, err)
	}
	tm.keys("C-c")
	tm.keys("C-c")

	// Trusted once is not recorded: the next session asks again.
	tm2 := startTmux(t, tmuxPath, tmp, work, env, append(argv, "script:"+script))
	tm2.waitFor("the dialog again", contains("1 item changed since you trusted this project."))
}
