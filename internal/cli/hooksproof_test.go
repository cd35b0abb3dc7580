package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// proofHome writes a HOME with guards of every kind the proof tests use:
// extensions (a guard, a rewriter, a confirmer, a dead fail-closed guard,
// a dead fail-open one), permission rules in the config, and an untrusted
// project whose Claude hook must not run.
func proofHome(t *testing.T) (home, work string) {
	t.Helper()
	root := t.TempDir()
	home, work = filepath.Join(root, "home"), filepath.Join(root, "work")
	plugins := filepath.Join(home, ".synaps-cli", "plugins")
	ext := func(id, tool, policy string, fake string) {
		dir := filepath.Join(plugins, id)
		if err := os.MkdirAll(filepath.Join(dir, ".synaps-plugin"), 0o755); err != nil {
			t.Fatal(err)
		}
		m := `{"name":"` + id + `","version":"0.0.1","extension":{"command":"fake-extension","protocol_version":1,"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","tool":"` + tool + `"}]` + policy + `}}`
		writeFile(t, filepath.Join(dir, ".synaps-plugin", "plugin.json"), m)
		writeFile(t, filepath.Join(dir, "fake.json"), fake)
	}
	ext("a-guard", "bash", "", `{"rules":[{"hook":"before_tool_call","input_contains":"rm -rf","result":{"action":"block","reason":"no rm -rf"}},
		{"hook":"before_tool_call","input_contains":"confirm-me","result":{"action":"confirm","message":"really?"}}]}`)
	ext("b-rewriter", "bash", "", `{"rules":[{"hook":"before_tool_call","input_contains":"\"ls\"","result":{"action":"modify","input":{"command":"rm -rf build"}}},
		{"hook":"before_tool_call","input_contains":"echo old","result":{"action":"modify","input":{"command":"echo new"}}}]}`)
	ext("c-dead-closed", "edit", `,"failure_policy":"closed"`, `{"init_mode":"crash"}`)
	ext("d-dead-open", "grep", "", `{"init_mode":"crash"}`)
	// A guard turned off by `synaps hooks disable`: it would block, but
	// is never asked.
	ext("e-disabled", "bash", "", `{"rules":[{"hook":"before_tool_call","input_contains":"disabled-guard-me","result":{"action":"block","reason":"the disabled guard answered"}}]}`)
	writeFile(t, filepath.Join(home, ".synaps-cli", "config"), "permissions.deny = Bash(shutdown:*)\ndisabled_hooks = ext:e-disabled/before_tool_call\n")
	// The project is not trusted: its Claude hook, which would block
	// curl, is not read by -p, nor by hooks test.
	writeFile(t, filepath.Join(work, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo untrusted >&2; exit 2"}]}]}}`)
	writeFile(t, filepath.Join(work, "notes.md"), "old text\n")
	return home, work
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runSynaps runs the real binary (testscript put it in PATH) in dir with
// HOME home, and returns stdout and the exit code.
func runSynaps(t *testing.T, home, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("synaps", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "SYNAPS_BASE_DIR=", "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// verdictOf is the part of a call report both runs must agree on.
type verdictOf struct {
	Verdict, By string
}

// TestHooksTestMatchesPrint: for every call of the table, `synaps hooks
// test` says what a real `synaps -p` run of the same call did — allow,
// block (and by whom), or ask (which -p, with nobody to ask, refuses) —
// and exits 0, 1 or 3 by it.
func TestHooksTestMatchesPrint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs synaps 46 times")
	}
	home, work := proofHome(t)
	tests := []struct {
		name string
		// tool and input as the model calls it (-p); test and testInput
		// as the user types them to hooks test ("" : the same).
		tool, input     string
		test, testInput string
		flags           []string
		want            verdictOf
	}{
		{name: "allowed by flag rule", tool: "bash", input: `{"command":"echo hi"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"allow", "rule:Bash"}},
		{name: "guard blocks", tool: "bash", input: `{"command":"rm -rf build"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"block", "ext:a-guard/before_tool_call"}},
		{name: "Claude spelling blocks", tool: "bash", input: `{"command":"rm -rf x"}`, test: "Bash", flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"block", "ext:a-guard/before_tool_call"}},
		{name: "confirm would ask", tool: "bash", input: `{"command":"echo confirm-me"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"ask", "ext:a-guard/before_tool_call"}},
		{name: "confirm under bypass runs", tool: "bash", input: `{"command":"echo confirm-me"}`, flags: []string{"--permission-mode", "bypassPermissions"}, want: verdictOf{"allow", "mode:bypassPermissions"}},
		{name: "modify then block", tool: "bash", input: `{"command":"ls"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"block", "ext:a-guard/before_tool_call"}},
		{name: "modify then allow", tool: "bash", input: `{"command":"echo old"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"allow", "rule:Bash"}},
		{name: "deny rule in config", tool: "bash", input: `{"command":"shutdown now"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"block", "rule:Bash(shutdown:*)"}},
		{name: "deny rule by flag", tool: "bash", input: `{"command":"echo hi"}`, flags: []string{"--disallowedTools", "Bash(echo:*)"}, want: verdictOf{"block", "rule:Bash(echo:*)"}},
		{name: "default mode asks bash", tool: "bash", input: `{"command":"touch made.md"}`, want: verdictOf{"ask", "mode:default"}},
		{name: "default mode asks write", tool: "write", input: `{"path":"new.md","content":"x"}`, want: verdictOf{"ask", "mode:default"}},
		{name: "acceptEdits writes", tool: "write", input: `{"path":"new.md","content":"x"}`, flags: []string{"--permission-mode", "acceptEdits"}, want: verdictOf{"allow", "mode:acceptEdits"}},
		{name: "plan mode refuses write", tool: "write", input: `{"path":"new.md","content":"x"}`, flags: []string{"--permission-mode", "plan"}, want: verdictOf{"block", "mode:plan"}},
		{name: "plan mode Claude spelling", tool: "write", input: `{"path":"new.md","content":"x"}`, test: "Write", testInput: `{"file_path":"new.md","content":"x"}`, flags: []string{"--permission-mode", "plan"}, want: verdictOf{"block", "mode:plan"}},
		{name: "plan mode reads", tool: "read", input: `{"path":"notes.md"}`, flags: []string{"--permission-mode", "plan"}, want: verdictOf{"allow", "mode:plan"}},
		{name: "read-only tool", tool: "read", input: `{"path":"notes.md"}`, want: verdictOf{"allow", "mode:default"}},
		{name: "dead fail-closed guard", tool: "edit", input: `{"path":"notes.md","old_string":"old","new_string":"new"}`, flags: []string{"--permission-mode", "acceptEdits"}, want: verdictOf{"block", "ext:c-dead-closed/before_tool_call"}},
		{name: "dead fail-open guard", tool: "grep", input: `{"pattern":"old"}`, want: verdictOf{"allow", "mode:default"}},
		{name: "untrusted project hook skipped", tool: "bash", input: `{"command":"curl -V"}`, flags: []string{"--allowedTools", "Bash(curl:*)"}, want: verdictOf{"allow", "rule:Bash(curl:*)"}},
		{name: "disabled hook is not asked", tool: "bash", input: `{"command":"echo disabled-guard-me"}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"allow", "rule:Bash"}},
		{name: "unknown tool", tool: "nosuch", input: `{}`, want: verdictOf{"block", "tools"}},
		{name: "schema gate", tool: "bash", input: `{"command":5}`, flags: []string{"--allowedTools", "Bash"}, want: verdictOf{"block", "schema"}},
		{name: "bypass still denies by rule", tool: "bash", input: `{"command":"shutdown now"}`, flags: []string{"--permission-mode", "bypassPermissions"}, want: verdictOf{"block", "rule:Bash(shutdown:*)"}},
	}
	exitFor := map[string]int{"allow": 0, "block": 1, "ask": 3}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := filepath.Join(work, "call"+string(rune('a'+i))+".jsonl")
			writeFile(t, script, `{"text":"go","tool_calls":[{"name":"`+tt.tool+`","input":`+tt.input+`}]}`+"\n"+`{"text":"ok"}`+"\n")
			out, stderr, _ := runSynaps(t, home, work, append([]string{"-p", "go", "--model", "script:" + script, "--output-format", "json"}, tt.flags...)...)
			var res struct {
				ToolCalls []struct {
					Coverage *verdictOf `json:"coverage"`
				} `json:"tool_calls"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.ToolCalls) != 1 || res.ToolCalls[0].Coverage == nil {
				t.Fatalf("-p gave no coverage of its one call (%v):\n%s\nstderr:\n%s", err, out, stderr)
			}
			ran := *res.ToolCalls[0].Coverage
			name, input := tt.tool, tt.input
			if tt.test != "" {
				name = tt.test
			}
			if tt.testInput != "" {
				input = tt.testInput
			}
			out, stderr, code := runSynaps(t, home, work, append([]string{"hooks", "test", name, input, "--json"}, tt.flags...)...)
			var tested verdictOf
			if err := json.Unmarshal([]byte(out), &tested); err != nil {
				t.Fatalf("hooks test --json: %v\n%s\nstderr:\n%s", err, out, stderr)
			}
			if diff := cmp.Diff(ran, tested); diff != "" {
				t.Errorf("hooks test differs from what -p did (-p +hooks test):\n%s\nhooks test stderr:\n%s", diff, stderr)
			}
			if diff := cmp.Diff(tt.want, tested); diff != "" {
				t.Errorf("verdict (-want +got):\n%s\n%s", diff, out)
			}
			if code != exitFor[tested.Verdict] {
				t.Errorf("hooks test exited %d for %s, want %d", code, tested.Verdict, exitFor[tested.Verdict])
			}
		})
	}
}
