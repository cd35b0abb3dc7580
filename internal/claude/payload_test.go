package claude

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

const fixtures = "../../../shared/spec/fixtures/claude-hook-payloads.jsonl"

// readFixtures returns the payloads Claude Code 2.1.197 sent its hooks in
// one scripted session. The file lives beside the spec; when it is not
// there (a checkout without ../shared) the copy in testdata is used.
func readFixtures(t *testing.T) []map[string]any {
	t.Helper()
	f, err := os.Open(fixtures)
	if err != nil {
		f, err = os.Open("testdata/claude-hook-payloads.jsonl")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	if len(out) != 23 {
		t.Fatalf("%d fixture payloads, want 23", len(out))
	}
	return out
}

// TestFixturePayloads: for every payload Claude Code sent, synaps builds
// the payload of the same event from its own side — the tool call made by
// synaps's real built-in tool on a scratch project, its input and result
// translated — and the two have the same keys, in the same order, with
// values of the same JSON types (tool_input: synaps sends no field Claude
// does not, each of the same type).
func TestFixturePayloads(t *testing.T) {
	for i, want := range readFixtures(t) {
		name := want["hook_event_name"].(string)
		t.Run(fmt.Sprintf("%02d-%s", i, name), func(t *testing.T) {
			e := synapsEvent(t, want)
			var got map[string]any
			payload := e.Payload()
			if err := json.Unmarshal(payload, &got); err != nil {
				t.Fatalf("payload %s: %v", payload, err)
			}
			if diff := cmp.Diff(keyOrder(t, fixtureLine(t, i)), keyOrder(t, string(payload))); diff != "" {
				t.Errorf("keys (-claude +synaps):\n%s", diff)
			}
			for k, wv := range want {
				if k == "tool_input" {
					gi, _ := got[k].(map[string]any)
					wi, _ := wv.(map[string]any)
					for gk, gv := range gi {
						if wvv, ok := wi[gk]; !ok || jsonKind(wvv) != jsonKind(gv) {
							t.Errorf("tool_input.%s = %v (%s); Claude's input has %v", gk, gv, jsonKind(gv), wvv)
						}
					}
					continue
				}
				if err := sameShape(k, wv, got[k]); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// synapsEvent makes the event synaps fires where Claude sent want: for
// tool events it runs the synaps tool the Claude tool stands for.
func synapsEvent(t *testing.T, want map[string]any) *Event {
	str := func(k string) string { s, _ := want[k].(string); return s }
	e := &Event{
		Name: str("hook_event_name"),
		Session: Session{ID: str("session_id"), TranscriptPath: str("transcript_path"), Cwd: str("cwd"),
			PermissionMode: "default", PromptID: "p-1", Effort: "high"},
		Prompt: str("prompt"), Source: str("source"), Model: str("model"), Reason: str("reason"),
		Trigger: str("trigger"), CustomInstructions: str("custom_instructions"),
		LastAssistantMessage: str("last_assistant_message"), AgentID: str("agent_id"), AgentType: str("agent_type"),
		AgentTranscriptPath: str("agent_transcript_path"),
	}
	if _, ok := want["tool_name"]; !ok {
		return e
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.txt"), []byte("hello\n"), 0o644)
	if str("tool_name") == "Write" {
		os.Remove(filepath.Join(dir, "x.txt"))
	}
	if str("tool_name") == "Grep" || str("tool_name") == "Glob" {
		os.WriteFile(filepath.Join(dir, "x.txt"), []byte("bye\n"), 0o644)
	}
	claudeIn, _ := json.Marshal(want["tool_input"])
	claudeIn = []byte(strings.ReplaceAll(string(claudeIn), "/PROJECT", dir))
	synapsName := SynapsName(str("tool_name"))
	synapsIn := FromClaudeInput(synapsName, claudeIn)
	e.ToolName = ClaudeName(synapsName)
	e.ToolInput = ToClaudeInput(synapsName, synapsIn, dir)
	e.ToolUseID = "toolu_1"
	if e.Name == "PreToolUse" {
		return e
	}
	var original *string
	if b, err := os.ReadFile(filepath.Join(dir, "x.txt")); err == nil {
		s := string(b)
		original = &s
	}
	var tl tool.Tool
	for _, c := range builtin.All(builtin.Options{WorkDir: dir}) {
		if c.Spec().RuntimeName == synapsName {
			tl = c
		}
	}
	start := time.Now()
	res, err := tl.Run(context.Background(), synapsIn)
	if err != nil {
		t.Fatal(err)
	}
	e.Duration = time.Since(start)
	if e.Name == "PostToolUseFailure" {
		if !res.IsError {
			t.Fatalf("%s %s did not fail: %q", synapsName, synapsIn, res.Output)
		}
		e.Error = ErrorText(res.Output)
		if e.Error != "Exit code 1" {
			t.Errorf("error %q, want Claude's \"Exit code 1\"", e.Error)
		}
		return e
	}
	if res.IsError {
		t.Fatalf("%s %s failed: %q", synapsName, synapsIn, res.Output)
	}
	e.ToolResponse = ToolResponse(synapsName, e.ToolInput, res.Output, original, PatchFromDiff(res.Diff))
	return e
}

func fixtureLine(t *testing.T, i int) string {
	b, err := os.ReadFile(fixtures)
	if err != nil {
		b, err = os.ReadFile("testdata/claude-hook-payloads.jsonl")
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")[i]
}

// keyOrder lists an object's top-level keys in the order written.
func keyOrder(t *testing.T, obj string) []string {
	dec := json.NewDecoder(strings.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// sameShape: got has the JSON type of want, objects the same keys, all
// the way down (an array's first element stands for the rest).
func sameShape(path string, want, got any) error {
	if jsonKind(want) != jsonKind(got) {
		return fmt.Errorf("%s: %s (%v), Claude sends %s (%v)", path, jsonKind(got), got, jsonKind(want), want)
	}
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		var wk, gk []string
		for k := range w {
			wk = append(wk, k)
		}
		for k := range g {
			gk = append(gk, k)
		}
		slices.Sort(wk)
		slices.Sort(gk)
		if !slices.Equal(wk, gk) {
			return fmt.Errorf("%s: keys %v, Claude sends %v", path, gk, wk)
		}
		for k := range w {
			if err := sameShape(path+"."+k, w[k], g[k]); err != nil {
				return err
			}
		}
	case []any:
		g := got.([]any)
		if len(w) > 0 && len(g) > 0 {
			return sameShape(path+"[0]", w[0], g[0])
		}
		if len(w) > 0 != (len(g) > 0) {
			return fmt.Errorf("%s: %d elements, Claude sends %d", path, len(g), len(w))
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
