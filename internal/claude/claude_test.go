package claude

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     map[string][]string // event -> "matcher: command …"
		warnings []string            // substrings, in order
		err      string
	}{
		{"settings file", `{"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"guard.sh","timeout":5}]}]}}`,
			map[string][]string{"PreToolUse": {"Bash: guard.sh"}}, nil, ""},
		{"plugin hooks.json", `{"description":"d","hooks":{"Stop":[{"hooks":[{"type":"command","command":"a"},{"type":"command","command":"b"}]}]}}`,
			map[string][]string{"Stop": {": a b"}}, nil, ""},
		{"no hooks", `{"permissions":{}}`, map[string][]string{}, nil, ""},
		{"an unknown hook type is skipped", `{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"comand","command":"p"},{"type":"command","command":"c"}]}]}}`,
			map[string][]string{"PostToolUse": {"*: c"}}, []string{`hooks.PostToolUse[0].hooks[0]: a "comand" hook; did you mean "command"?`}, ""},
		{"http hooks", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"http://127.0.0.1:9/pre"}]}]}}`,
			map[string][]string{"PreToolUse": {": "}}, nil, ""},
		{"an http hook needs a URL", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"127.0.0.1:9/pre"}]}]}}`,
			nil, nil, `hooks.PreToolUse[0].hooks[0].url "127.0.0.1:9/pre": an http hook needs the http:// or https:// URL`},
		{"onFailure other than continue reads as block", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"c","onFailure":"fail"}]}]}}`,
			map[string][]string{"Stop": {": c"}}, []string{`hooks.Stop[0].hooks[0].onFailure "fail" reads as "block"`}, ""},
		{"unknown event", `{"hooks":{"TeammateIdle":[{"hooks":[{"type":"command","command":"c"}]}]}}`,
			map[string][]string{}, []string{"hooks.TeammateIdle: synaps does not fire this Claude Code event (no moment: synaps has no agent teams); its hooks are skipped"}, ""},
		{"misspelt event", `{"hooks":{"PreToolUs":[{"hooks":[{"type":"command","command":"c"}]}]}}`,
			map[string][]string{}, []string{`hooks.PreToolUs: synaps does not fire this event; its hooks are skipped; did you mean "PreToolUse"?`}, ""},
		{"unknown event, nothing near", `{"hooks":{"PreToolUse_typo":[{"hooks":[{"type":"command","command":"c"}]}]}}`,
			map[string][]string{}, []string{`hooks.PreToolUse_typo: synaps does not fire this event; its hooks are skipped (it fires SessionStart, `}, ""},
		{"bad JSON names the line", "{\n\"hooks\": {\n,\n}", nil, nil, "f.json: line 3: not valid JSON"},
		{"hooks not an object", `{"hooks":[]}`, nil, nil, `f.json: hooks must be an object of events ("PreToolUse": […]), got a list`},
		{"event not a list", `{"hooks":{"Stop":{}}}`, nil, nil, "f.json: hooks.Stop must be a list"},
		{"empty command", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":" "}]}]}}`, nil, nil, "f.json: hooks.Stop[0].hooks[0].command is empty"},
		{"bad timeout", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"c","timeout":"5"}]}]}}`, nil, nil, `hooks.Stop[0].hooks[0].timeout must be a number of seconds above 0, got "5"`},
		{"bad regex", `{"hooks":{"PreToolUse":[{"matcher":"Bash(","hooks":[{"type":"command","command":"c"}]}]}}`, nil, nil, `hooks.PreToolUse[0].matcher "Bash(": error parsing regexp`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, warnings, err := Parse("f.json", []byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for ev, groups := range h.Events {
				for _, g := range groups {
					s := g.Matcher.String() + ":"
					for _, hd := range g.Handlers {
						s += " " + hd.Command
					}
					got[ev] = append(got[ev], s)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("hooks (-want +got):\n%s", diff)
			}
			if len(warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %d", warnings, len(tc.warnings))
			}
			for i, w := range tc.warnings {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning %q lacks %q", warnings[i], w)
				}
			}
		})
	}
}

func TestMatcher(t *testing.T) {
	for _, tc := range []struct {
		matcher string
		yes, no []string
	}{
		{"", []string{"Bash", "anything"}, nil},
		{"*", []string{"Bash"}, nil},
		{"Bash", []string{"Bash"}, []string{"bash", "BashOutput", "xBash"}},
		{"Edit|Write|MultiEdit", []string{"Edit", "Write", "MultiEdit"}, []string{"Read", "Edit|Write"}},
		{"mcp__.*", []string{"mcp__fs__read", "xmcp__a"}, []string{"Bash"}},
		{"Notebook.*", []string{"NotebookEdit"}, []string{"Bash"}},
		{"^Write$", []string{"Write"}, []string{"Writer"}},
	} {
		m, err := CompileMatcher(tc.matcher)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range tc.yes {
			if !m.Match(v) {
				t.Errorf("%q does not match %q", tc.matcher, v)
			}
		}
		for _, v := range tc.no {
			if m.Match(v) {
				t.Errorf("%q matches %q", tc.matcher, v)
			}
		}
	}
	// Events without a matcher run every group; the others test their value.
	bash, _ := CompileMatcher("Bash")
	resume, _ := CompileMatcher("resume")
	for _, tc := range []struct {
		e    Event
		m    Matcher
		want bool
	}{
		{Event{Name: "UserPromptSubmit"}, bash, true},
		{Event{Name: "Stop"}, bash, true},
		{Event{Name: "PreToolUse", ToolName: "Bash"}, bash, true},
		{Event{Name: "PreToolUse", ToolName: "Read"}, bash, false},
		{Event{Name: "SessionStart", Source: "resume"}, resume, true},
		{Event{Name: "SessionStart", Source: "startup"}, resume, false},
	} {
		if got := tc.e.Selects(tc.m); got != tc.want {
			t.Errorf("%s %+v selects %q: %v, want %v", tc.e.Name, tc.e, tc.m, got, tc.want)
		}
	}
}

func TestToolTranslation(t *testing.T) {
	for _, tc := range []struct {
		tool, synaps, claude string
		back                 string // FromClaudeInput(claude); "" = synaps
	}{
		{"bash", `{"command":"ls","timeout":2}`, `{"command":"ls","timeout":2000}`, ""},
		{"read", `{"path":"a.txt","offset":3}`, `{"file_path":"/p/a.txt","offset":3}`, `{"offset":3,"path":"/p/a.txt"}`},
		{"write", `{"path":"/abs/b","content":"x"}`, `{"content":"x","file_path":"/abs/b"}`, ""},
		{"edit", `{"path":"c","old_string":"a","new_string":"b","replace_all":true}`, `{"file_path":"/p/c","new_string":"b","old_string":"a","replace_all":true}`, `{"new_string":"b","old_string":"a","path":"/p/c","replace_all":true}`},
		{"grep", `{"pattern":"x","ignore_case":true}`, `{"-i":true,"output_mode":"content","pattern":"x"}`, `{"ignore_case":true,"pattern":"x"}`},
		{"find", `{"pattern":"*.go","path":"src"}`, `{"path":"/p/src","pattern":"*.go"}`, `{"path":"/p/src","pattern":"*.go"}`},
		{"mcp__fs__read", `{"path":"a"}`, `{"path":"a"}`, ""},
	} {
		got := string(ToClaudeInput(tc.tool, json.RawMessage(tc.synaps), "/p"))
		if got != tc.claude {
			t.Errorf("ToClaudeInput(%s, %s) = %s, want %s", tc.tool, tc.synaps, got, tc.claude)
		}
		back := tc.back
		if back == "" {
			back = tc.synaps
		}
		if got := string(FromClaudeInput(tc.tool, json.RawMessage(tc.claude))); !jsonEqual(got, back) {
			t.Errorf("FromClaudeInput(%s, %s) = %s, want %s", tc.tool, tc.claude, got, back)
		}
	}
	// A hook's updatedInput in Claude's shape: Claude-only fields dropped,
	// the timeout rounded up to whole seconds.
	if got := string(FromClaudeInput("bash", json.RawMessage(`{"command":"ls","description":"list","timeout":1500}`))); got != `{"command":"ls","timeout":2}` {
		t.Errorf("updatedInput for bash = %s", got)
	}
	for synaps, claude := range map[string]string{"bash": "Bash", "find": "Glob", "ls": "LS", "mcp__a__b": "mcp__a__b", "hello_tool": "hello_tool"} {
		if got := ClaudeName(synaps); got != claude {
			t.Errorf("ClaudeName(%s) = %s, want %s", synaps, got, claude)
		}
		if got := SynapsName(claude); got != synaps {
			t.Errorf("SynapsName(%s) = %s, want %s", claude, got, synaps)
		}
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && cmp.Equal(x, y)
}

func TestPatchFromDiff(t *testing.T) {
	d := &tool.Diff{Lines: []tool.DiffLine{
		{Kind: " ", Old: 1, New: 1, Text: "a"}, {Kind: "-", Old: 2, Text: "b"}, {Kind: "+", New: 2, Text: "B"},
		{Kind: "…"},
		{Kind: "+", New: 10, Text: "new"}, {Kind: " ", Old: 9, New: 11, Text: "z"},
	}}
	want := []Hunk{
		{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []string{" a", "-b", "+B"}},
		{OldStart: 9, OldLines: 1, NewStart: 10, NewLines: 2, Lines: []string{"+new", " z"}},
	}
	if diff := cmp.Diff(want, PatchFromDiff(d)); diff != "" {
		t.Errorf("PatchFromDiff (-want +got):\n%s", diff)
	}
	if got := PatchFromDiff(&tool.Diff{Created: true, Lines: []tool.DiffLine{{Kind: "+", New: 1, Text: "x"}}}); len(got) != 0 {
		t.Errorf("a created file has a patch: %v", got)
	}
}

func TestInterpret(t *testing.T) {
	pre := &Event{Name: "PreToolUse", ToolName: "Write"}
	post := &Event{Name: "PostToolUse", ToolName: "Bash"}
	prompt := &Event{Name: "UserPromptSubmit"}
	start := &Event{Name: "SessionStart"}
	stop := &Event{Name: "Stop"}
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name string
		e    *Event
		run  Run
		want Outcome
	}{
		{"exit 0, no output", pre, Run{}, Outcome{}},
		{"exit 0, {}", pre, Run{Stdout: "{}\n"}, Outcome{}},
		{"exit 2 blocks a tool with Claude's message", pre, Run{ExitCode: 2, Stderr: "no secrets\n"},
			Outcome{Decision: Block, Reason: "PreToolUse:Write hook error: [${CLAUDE_PLUGIN_ROOT}/g.py]: no secrets"}},
		{"exit 2 blocks a prompt", prompt, Run{ExitCode: 2, Stderr: "not that"}, Outcome{Decision: Block, Reason: "not that"}},
		{"exit 2 on Stop continues the agent", stop, Run{ExitCode: 2, Stderr: "run the tests"}, Outcome{Decision: Block, Reason: "run the tests"}},
		{"exit 2 after a tool tells the model", post, Run{ExitCode: 2, Stderr: "lint failed"},
			Outcome{Context: "PostToolUse:Bash hook error: [${CLAUDE_PLUGIN_ROOT}/g.py]: lint failed"}},
		{"exit 2 at session start tells the user", start, Run{ExitCode: 2, Stderr: "hm"}, Outcome{Notes: []string{"hm"}}},
		{"other exit fails", pre, Run{ExitCode: 1, Stderr: "boom"}, Outcome{Failed: "the hook exited with code 1: boom"}},
		{"timeout fails", pre, Run{TimedOut: true, Timeout: 5 * time.Second}, Outcome{Failed: "the hook ran past its timeout of 5s and was stopped"}},
		{"bad JSON fails", pre, Run{Stdout: `{"decision": `}, Outcome{Failed: "the hook's output begins like JSON but is not: unexpected EOF"}},
		{"plain stdout at start is context", start, Run{Stdout: "branch main\n"}, Outcome{Context: "branch main"}},
		{"plain stdout on a prompt is context", prompt, Run{Stdout: "today is Monday"}, Outcome{Context: "today is Monday"}},
		{"plain stdout elsewhere is for the user", pre, Run{Stdout: "checked"}, Outcome{Notes: []string{"checked"}}},
		{"deny", pre, Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
			Outcome{Decision: Block, Reason: "no"}},
		{"allow", pre, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"fine"}}`}, Outcome{Decision: Allow}},
		{"ask with a new input", pre, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?","updatedInput":{"file_path":"/p/y"}}}`},
			Outcome{Decision: Ask, Reason: "sure?", UpdatedInput: json.RawMessage(`{"file_path":"/p/y"}`)}},
		{"defer asks, marked deferred", pre, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"defer"}}`}, Outcome{Decision: Ask, Defer: true}},
		{"legacy block", pre, Run{Stdout: `{"decision":"block","reason":"old style"}`}, Outcome{Decision: Block, Reason: "old style"}},
		{"legacy approve", pre, Run{Stdout: `{"decision":"approve"}`}, Outcome{Decision: Allow}},
		{"continue false stops, and says so to the user", pre, Run{Stdout: `{"continue":false,"stopReason":"done for today","systemMessage":"bye"}`},
			Outcome{Stop: true, StopReason: "done for today", Notes: []string{"bye"}}},
		{"post: block feedback and context go to the model", post, Run{Stdout: `{"decision":"block","reason":"tests fail","hookSpecificOutput":{"additionalContext":"see log"}}`},
			Outcome{Context: "PostToolUse:Bash hook blocking error from command \"${CLAUDE_PLUGIN_ROOT}/g.py\": tests fail\nsee log"}},
		{"post: updated output", post, Run{Stdout: `{"hookSpecificOutput":{"updatedToolOutput":"redacted"}}`}, Outcome{UpdatedOutput: str("redacted")}},
		{"post: updated MCP output", post, Run{Stdout: `{"hookSpecificOutput":{"updatedMCPToolOutput":{"content":"x"}}}`}, Outcome{UpdatedOutput: str(`{"content":"x"}`)}},
		{"prompt block", prompt, Run{Stdout: `{"decision":"block","reason":"not now"}`}, Outcome{Decision: Block, Reason: "not now"}},
		{"start context", start, Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}`}, Outcome{Context: "ctx"}},
		{"stop block continues", stop, Run{Stdout: `{"decision":"block","reason":"again"}`}, Outcome{Decision: Block, Reason: "again"}},
		{"start error", pre, Run{StartErr: os.ErrNotExist}, Outcome{Failed: "the hook did not start: file does not exist"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Interpret(tc.e, "${CLAUDE_PLUGIN_ROOT}/g.py", tc.run)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Interpret (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExec runs real hook commands through the shell: the payload on
// stdin, the environment, exit codes, and a timeout that kills what the
// hook started.
func TestExec(t *testing.T) {
	dir := t.TempDir()
	env := HookEnv([]string{"PATH=" + os.Getenv("PATH")}, dir, "s-1", "/plugins/p", "/data/p", "")
	ctx := context.Background()
	r := Exec(ctx, Command{Line: `cat > in.json; echo "$CLAUDE_PROJECT_DIR $CLAUDE_PLUGIN_ROOT $CLAUDECODE"; echo oops >&2; exit 2`, Dir: dir, Env: env}, []byte(`{"a":1}`))
	if r.ExitCode != 2 || strings.TrimSpace(r.Stdout) != dir+" /plugins/p 1" || strings.TrimSpace(r.Stderr) != "oops" {
		t.Errorf("run = %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "in.json")); string(b) != `{"a":1}` {
		t.Errorf("stdin = %q", b)
	}
	// ${CLAUDE_PLUGIN_ROOT} in a command is expanded by the shell.
	if r := Exec(ctx, Command{Line: `echo ${CLAUDE_PLUGIN_ROOT}/x`, Dir: dir, Env: env}, nil); strings.TrimSpace(r.Stdout) != "/plugins/p/x" {
		t.Errorf("expanded %q", r.Stdout)
	}
	// A hook that hangs is stopped with its children.
	r = Exec(ctx, Command{Line: `sleep 30 & echo $! > child; wait`, Dir: dir, Env: env, Timeout: 200 * time.Millisecond}, nil)
	if !r.TimedOut {
		t.Fatalf("hanging hook: %+v", r)
	}
	pid, _ := os.ReadFile(filepath.Join(dir, "child"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat("/proc/" + strings.TrimSpace(string(pid))); os.IsNotExist(err) || len(pid) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook's child %s outlived its timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := Exec(ctx, Command{Line: "true", Dir: filepath.Join(dir, "missing"), Env: env}, nil); r.StartErr == nil {
		t.Errorf("a missing directory started: %+v", r)
	}
}
