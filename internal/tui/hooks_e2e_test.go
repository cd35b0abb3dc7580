package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIHooksToggle: /hooks opens the list of hooks in chain order; enter
// turns the selected one off, saved in the config, and the session's next
// tool call does not start it (its marker file is never written); enter
// again turns it on.
func TestTUIHooksToggle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and drives tmux")
	}
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	argv := tuiCommand(t, root, tmp)
	base := filepath.Join(tmp, "base")
	work := filepath.Join(tmp, "work")
	writeFile(t, filepath.Join(work, "README"), "x")
	writeFile(t, filepath.Join(base, "plugins", "cc", ".claude-plugin", "plugin.json"), `{"name":"cc"}`)
	writeFile(t, filepath.Join(base, "plugins", "cc", "hooks", "hooks.json"),
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat >/dev/null; touch marked"}]}]}}`)
	script := filepath.Join(tmp, "script.jsonl")
	writeFile(t, script, `{"text":"Running.","tool_calls":[{"name":"bash","input":{"command":"echo ran"}}]}`+"\n"+`{"text":"done"}`+"\n")
	tm := startTmux(t, tmuxPath, tmp, work, []string{
		"HOME=" + filepath.Join(tmp, "home"),
		"SYNAPS_BASE_DIR=" + base,
		"TERM=xterm-256color",
	}, append(argv, "script:"+script))
	tm.waitFor("the session up", contains("ext 1 ok"))

	tm.send("/hooks")
	tm.waitFor("the hooks screen", contains("hooks in chain order"), contains("▸ [on]  1 plugin:cc/PreToolUse/0  running  PreToolUse Bash: cat >/dev/null; touch marked"))
	tm.keys("Enter")
	tm.waitFor("the hook turned off", contains("▸ [off] 1 plugin:cc/PreToolUse/0  disabled"), contains("disabled plugin:cc/PreToolUse/0 (saved in "))
	tm.keys("Escape")
	tm.waitFor("the screen closed", contains("hooks closed"))
	cfg, err := os.ReadFile(filepath.Join(base, "config"))
	if err != nil || !strings.Contains(string(cfg), "disabled_hooks = plugin:cc/PreToolUse/0") {
		t.Fatalf("config: %s %v", cfg, err)
	}

	tm.send("go")
	tm.waitFor("the call ran", contains("done"))
	if _, err := os.Stat(filepath.Join(work, "marked")); err == nil {
		t.Fatal("the disabled hook ran: its marker was written")
	}

	tm.send("/hooks")
	tm.waitFor("the hooks screen again", contains("▸ [off] 1 plugin:cc/PreToolUse/0"))
	tm.keys("Enter")
	tm.waitFor("the hook on again", contains("▸ [on]  1 plugin:cc/PreToolUse/0  running"), contains("enabled plugin:cc/PreToolUse/0"))
	tm.keys("Escape")
}
