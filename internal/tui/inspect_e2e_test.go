package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIInspectCommands drives the inspection commands through the real
// binary in tmux against the scripted model: /extensions lists the
// project's Claude settings hooks (it said "no plugins installed" while
// they ran), /status, /context, /permissions adds a rule (saved) and
// lists it with its file, /config sets a key, /memory edit opens the
// project's instructions file in $EDITOR, /init has the model write
// AGENTS.md, and /help lists them all and /hooks.
func TestTUIInspectCommands(t *testing.T) {
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
	writeFile(t, filepath.Join(work, ".claude", "settings.json"),
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}`)
	editor := filepath.Join(tmp, "editor.sh")
	writeFile(t, editor, "#!/bin/sh\necho '- edited in the editor' >> \"$1\"\n")
	if err := os.Chmod(editor, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(tmp, "script.jsonl")
	writeFile(t, script, `{"tool_calls":[{"name":"write","input":{"path":"AGENTS.md","content":"Build: go build ./...\n"}}],"expect":{"last_user_contains":"Please analyze this codebase and create a AGENTS.md file"}}`+"\n"+`{"text":"Wrote AGENTS.md."}`+"\n")
	tm := startTmux(t, tmuxPath, tmp, work, []string{
		"HOME=" + filepath.Join(tmp, "home"),
		"SYNAPS_BASE_DIR=" + base,
		"TERM=xterm-256color",
		"EDITOR=" + editor,
		"VISUAL=",
	}, append(argv, "script:"+script, "--trust-project"))
	// The project's Claude hook runs: the status line says so.
	tm.waitFor("the session up", contains("ext 0 ok · 1 settings hook"))

	tm.send("/extensions")
	tm.waitFor("the settings hooks listed", contains("no synaps plugins installed"), contains("claude-project  1 running  PreToolUse"))
	tm.send("/status")
	tm.waitFor("the status", contains("session file"), contains("project trust     trusted"))
	tm.send("/context")
	tm.waitFor("the context parts", contains("system prompt"), contains("tools' schemas"), contains("tool results"))
	tm.send("/permissions deny Bash(rm:*)")
	tm.waitFor("the rule added", contains("deny rule Bash(rm:*) added: saved in"))
	tm.send("/permissions")
	tm.waitFor("the rule listed", contains("deny   Bash(rm:*)"))
	tm.send("/config set extension_hook_timeout_ms 9000")
	tm.waitFor("the key set", contains("extension_hook_timeout_ms = 9000 saved in"))
	tm.send("/memory edit project")
	tm.waitFor("the editor ran", contains("AGENTS.md saved; new sessions read it"))
	if b, err := os.ReadFile(filepath.Join(work, "AGENTS.md")); err != nil || string(b) != "- edited in the editor\n" {
		t.Errorf("AGENTS.md after /memory edit: %q %v", b, err)
	}
	tm.send("/init")
	tm.waitFor("the model wrote the file", contains("Wrote AGENTS.md."))
	tm.send("/help")
	tm.waitFor("the help", contains("/context"), contains("/permissions [allow|ask|deny RULE"), contains("/memory [edit user|project]"), contains("/init"))

	b, err := os.ReadFile(filepath.Join(work, ".synaps", "config"))
	if err != nil || !strings.Contains(string(b), "permissions.deny = Bash(rm:*)") {
		t.Errorf(".synaps/config: %q %v", b, err)
	}
	b, err = os.ReadFile(filepath.Join(work, "AGENTS.md"))
	if err != nil || string(b) != "Build: go build ./...\n" {
		t.Errorf("AGENTS.md: %q %v", b, err)
	}
	b, err = os.ReadFile(filepath.Join(base, "config"))
	if err != nil || !strings.Contains(string(b), "extension_hook_timeout_ms = 9000") {
		t.Errorf("config: %q %v", b, err)
	}
}
