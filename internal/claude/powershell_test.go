package claude

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// A powershell hook on a machine without pwsh is skipped, said once for
// the session, and is no failure: with onFailure "block" it would
// otherwise block every call; a bash hook beside it runs as always.
func TestPowershellWithoutPwsh(t *testing.T) {
	old := lookPwsh
	lookPwsh = func() error { return errors.New("not found") }
	defer func() { lookPwsh = old }()
	dir := t.TempDir()
	h, warnings, err := Parse("settings.json", []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"command","shell":"powershell","command":"Write-Error no; exit 2","onFailure":"block"},
		{"type":"command","command":"echo ran >> `+dir+`/bash.log"}]}]}}`))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	var notes []string
	l := &Link{Name: "claude-project", Hooks: h.WithIDs(func(ev string, n int) string { return hook.ClaudeHookID("project", ev, n) }), Env: []string{"PATH=" + os.Getenv("PATH")}, ProjectDir: dir,
		Notify: func(_, text string) { notes = append(notes, text) }}
	spec, _ := contract.LookupHook(contract.HookBeforeToolCall)
	for range 2 {
		res, err := l.Handle(context.Background(), spec, &hook.Event{Kind: contract.HookBeforeToolCall, ToolName: "bash", ToolRuntimeName: "bash",
			ToolInput: json.RawMessage(`{"command":"ls"}`), SessionID: "s"}, nil)
		if err != nil || res.Action != contract.ActionContinue {
			t.Fatalf("answer %+v, %v; want continue", res, err)
		}
	}
	want := []string{`hook claude:project/PreToolUse/0 (Write-Error no; exit 2) has shell "powershell" and pwsh is not on PATH: it is skipped this session; install PowerShell 7 (pwsh) to run it`}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(dir + "/bash.log"); strings.Count(string(b), "ran") != 2 {
		t.Errorf("the bash hook ran %q; want twice", b)
	}
	// A listing says so too.
	if why := NotRunWhy(h.Events["PreToolUse"][0].Handlers[0]); !strings.Contains(why, "pwsh is not on PATH") {
		t.Errorf("NotRunWhy of the powershell hook: %q", why)
	}
	if why := NotRunWhy(h.Events["PreToolUse"][0].Handlers[1]); why != "" {
		t.Errorf("NotRunWhy of the bash hook: %q", why)
	}
}
