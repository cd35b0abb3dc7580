package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTUIRewakeIdle: an asyncRewake Stop hook that exits 2 after the
// turn has ended wakes the idle terminal UI, as Claude Code's does: its
// stderr, after rewakeMessage, is sent to the model as a message of its
// own (the scripted model checks it arrives framed as hook feedback) and
// the model answers it, with nothing typed.
func TestTUIRewakeIdle(t *testing.T) {
	e := newE2E(t, `{"text":"First."}`+"\n"+
		`{"text":"Woken.","tool_calls":[{"name":"bash","input":{"command":"touch woken"}}],"expect":{"last_user_contains":"<hook-feedback from=\"bg\">\nThe linter says:\nlint failed on x.go\n</hook-feedback>"}}`+"\n"+
		`{"text":"Fixed."}`+"\n")
	writeFile(t, filepath.Join(e.base, "plugins", "bg", ".claude-plugin", "plugin.json"), `{"name":"bg"}`)
	writeFile(t, filepath.Join(e.base, "plugins", "bg", "hooks", "hooks.json"),
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","asyncRewake":true,"once":true,"rewakeMessage":"The linter says:","timeout":20,`+
			`"command":"cat >/dev/null; sleep 1; echo 'lint failed on x.go' >&2; exit 2"}]}]}}`)
	e.start(t, 120, 40)
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("go")
	e.waitFor("the first answer", contains("First."))
	e.waitFor("the woken turn's answer", contains("bg hook (in the background): The linter says:"), contains("Woken."), contains("Fixed."))
	if _, err := os.Stat(filepath.Join(e.work, "woken")); err != nil {
		t.Fatalf("the woken turn's tool call did not run: %v", err)
	}
}
