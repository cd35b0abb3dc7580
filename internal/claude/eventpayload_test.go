package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// keyTypes is a payload's keys in order, each with its JSON type; nested
// objects and the first element of arrays are walked
// ("tool_calls[].tool_name:string").
func keyTypes(t *testing.T, payload []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(payload))
	var out []string
	// walk reads one value, adds the keys inside it, and says its type.
	var walk func(prefix string, keep bool) string
	walk = func(prefix string, keep bool) string {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", payload, err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' {
				for dec.More() {
					k, _ := dec.Token()
					key := prefix + k.(string)
					at := len(out)
					if keep {
						out = append(out, key)
					}
					kind := walk(key+".", keep)
					if keep {
						out[at] = key + ":" + kind
					}
				}
				dec.Token()
				return "object"
			}
			for n := 0; dec.More(); n++ {
				walk(strings.TrimSuffix(prefix, ".")+"[].", keep && n == 0)
			}
			dec.Token()
			return "array"
		case string:
			return "string"
		case bool:
			return "bool"
		case nil:
			return "null"
		}
		return "number"
	}
	walk("", true)
	return out
}

// TestNewerPayloadsMatchCapture: for each newer event, the payload synaps
// builds has the keys Claude Code 2.1.332 sent, in its order, with values
// of the same JSON types (captured in -p against a loopback model server:
// testdata/claude-2.1.332-newer-payloads.jsonl). PermissionRequest's
// permission_suggestions is the one field synaps leaves out (optional in
// Claude Code's schema; docs/claude.md).
func TestNewerPayloadsMatchCapture(t *testing.T) {
	f, err := os.Open("testdata/claude-2.1.332-newer-payloads.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := Session{ID: "s", TranscriptPath: "/t.jsonl", Cwd: "/PROJECT", PermissionMode: "default", PromptID: "p", Effort: "high"}
	bash := json.RawMessage(`{"command":"touch touched.txt","description":"touch"}`)
	built := map[string]*Event{
		"PermissionRequest": {Name: "PermissionRequest", ToolName: "Bash", ToolInput: bash},
		"PostToolBatch": {Name: "PostToolBatch", Newer: Newer{ToolCalls: []BatchCall{
			{ToolName: "Bash", ToolInput: bash, ToolUseID: "toolu_1", ToolResponse: "touch was not run"}}}},
		"SubagentStart":       {Name: "SubagentStart", AgentID: "a1", AgentType: "general-purpose"},
		"StopFailure":         {Name: "StopFailure", LastAssistantMessage: "API Error: 400", Newer: Newer{ErrorType: "unknown"}},
		"UserPromptExpansion": {Name: "UserPromptExpansion", Prompt: "/greet Ada", Newer: Newer{ExpansionType: "slash_command", CommandName: "greet", CommandArgs: "Ada", CommandSource: "projectSettings"}},
		"InstructionsLoaded":  {Name: "InstructionsLoaded", Newer: Newer{FilePath: "/PROJECT/CLAUDE.md", MemoryType: "Project", LoadReason: "session_start"}},
		"PostCompact":         {Name: "PostCompact", Trigger: "manual", Newer: Newer{CompactSummary: "Done."}},
		"PreModelSwitch":      {Name: "PreModelSwitch", Newer: Newer{FromModel: "a", ToModel: "b", RequestedModel: "b", SwitchSource: "command"}},
	}
	omitted := map[string]bool{"permission_suggestions:array": true, "permission_suggestions[].type:string": true,
		"permission_suggestions[].directories:array": true, "permission_suggestions[].destination:string": true}
	// synaps always says error_details (Claude Code when it has them).
	extra := map[string][]string{"StopFailure": {"error_details:string"}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := 0
	for sc.Scan() {
		var head struct {
			Name string `json:"hook_event_name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			t.Fatal(err)
		}
		e := built[head.Name]
		if e == nil {
			t.Fatalf("no synaps event built for captured %s", head.Name)
		}
		seen++
		e.Session = s
		var want []string
		for _, k := range keyTypes(t, sc.Bytes()) {
			if !omitted[k] {
				want = append(want, k)
			}
		}
		var got []string
		for _, k := range keyTypes(t, e.Payload()) {
			skip := false
			for _, x := range extra[head.Name] {
				skip = skip || k == x
			}
			if !skip {
				got = append(got, k)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: payload keys (-Claude Code 2.1.332 +synaps):\n%s", head.Name, diff)
		}
	}
	if seen != len(built) {
		t.Errorf("%d captured payloads, want %d", seen, len(built))
	}
}

// What a PermissionRequest or UserPromptExpansion hook's answer means.
func TestNewerOutcome(t *testing.T) {
	for _, tc := range []struct {
		name, event string
		run         Run
		want        Outcome
	}{
		{"allow", "PermissionRequest", Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`}, Outcome{Decision: Allow}},
		{"deny with message", "PermissionRequest", Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not on main"}}}`},
			Outcome{Decision: Block, Reason: "not on main"}},
		{"deny without message", "PermissionRequest", Run{Stdout: `{"hookSpecificOutput":{"decision":{"behavior":"deny"}}}`},
			Outcome{Decision: Block, Reason: "PermissionRequest:Bash hook denied the permission"}},
		{"deny with interrupt ends the turn", "PermissionRequest", Run{Stdout: `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"stop here","interrupt":true}}}`},
			Outcome{Decision: Block, Reason: "stop here", Stop: true, StopReason: "stop here"}},
		{"exit 2 denies", "PermissionRequest", Run{ExitCode: 2, Stderr: "no"}, Outcome{Decision: Block, Reason: "PermissionRequest:Bash hook denied the permission: no"}},
		{"no decision", "PermissionRequest", Run{Stdout: `{}`}, Outcome{}},
		{"a top-level decision string is not PermissionRequest's", "PermissionRequest", Run{Stdout: `{"decision":"approve"}`}, Outcome{}},
		{"expansion block", "UserPromptExpansion", Run{Stdout: `{"decision":"block","reason":"frozen"}`}, Outcome{Decision: Block, Reason: "frozen"}},
		{"expansion context", "UserPromptExpansion", Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"more"}}`}, Outcome{Context: "more"}},
		{"expansion exit 2", "UserPromptExpansion", Run{ExitCode: 2, Stderr: "stop"}, Outcome{Decision: Block, Reason: "stop"}},
		{"observe-only event: stderr of exit 2 is for the user", "StopFailure", Run{ExitCode: 2, Stderr: "noted"}, Outcome{Notes: []string{"noted"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Interpret(&Event{Name: tc.event, ToolName: "Bash"}, "h.sh", tc.run)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// PreCompact without custom instructions says null, as Claude Code
// 2.1.332 does (`/compact` alone); with them, the text.
func TestPreCompactInstructions(t *testing.T) {
	e := &Event{Name: "PreCompact", Trigger: "manual", Session: Session{ID: "s"}}
	if got := string(e.Payload()); !strings.HasSuffix(got, `"trigger":"manual","custom_instructions":null}`) {
		t.Errorf("payload %s, want custom_instructions null", got)
	}
	e.CustomInstructions = "keep the file names"
	if got := string(e.Payload()); !strings.HasSuffix(got, `"custom_instructions":"keep the file names"}`) {
		t.Errorf("payload %s, want the instructions", got)
	}
}
