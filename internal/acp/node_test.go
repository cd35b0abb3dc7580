package acp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// TestNodeClient: an ACP client built on the official TypeScript SDK
// (testdata/node, installed by .ci/run with npm ci) drives `synaps acp`
// as an editor would: initialize, a new session, prompts with streamed
// text and tool calls reported with their status, a confirm from a guard
// extension arriving as session/request_permission and answered both
// ways, a cancel mid-turn, and the session loaded again by a second
// agent process.
func TestNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	if _, err := os.Stat("testdata/node/node_modules/@agentclientprotocol/sdk"); err != nil {
		t.Skip("the ACP TypeScript SDK is not installed: npm ci --prefix internal/acp/testdata/node (.ci/run does)")
	}
	base := t.TempDir()
	work := filepath.Join(base, "work")
	os.MkdirAll(work, 0o755)
	exttest.Plugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call", "tool": "bash"}},
	}, exttest.Spec{Rules: []exttest.Rule{
		{Hook: "before_tool_call", InputContains: "rm -rf", Result: json.RawMessage(`{"action":"block","reason":"no rm -rf"}`)},
		{Hook: "before_tool_call", InputContains: "git push", Result: json.RawMessage(`{"action":"confirm","message":"push to the remote?"}`)},
	}})
	write := func(name string, lines ...string) string {
		p := filepath.Join(base, name)
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return "script:" + p
	}
	first := write("first.jsonl",
		`{"text":"Checking.","tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}`,
		`{"text":"Pushing.","tool_calls":[{"name":"bash","input":{"command":"git push --dry-run 2>/dev/null; echo pushed"}}]}`,
		`{"text":"Cleaning.","tool_calls":[{"name":"bash","input":{"command":"rm -rf build"}}]}`,
		`{"text":"Done."}`,
		`{"text":"Pushing again.","tool_calls":[{"name":"bash","input":{"command":"git push; touch pushed2"}}]}`,
		`{"text":"Not pushed."}`,
		`{"text":"Waiting.","tool_calls":[{"name":"bash","input":{"command":"sleep 30"}}]}`,
	)
	again := write("again.jsonl", `{"text":"Back again.","expect":{"last_user_contains":"are you there"}}`)
	self, _ := os.Executable()
	cmds, _ := json.Marshal(map[string][]string{
		// Bash runs without the default mode's question, so the editor
		// is asked only about the guard's confirm.
		"first": {self, "synaps-main", "acp", "--model", first, "--allowedTools", "Bash"},
		"again": {self, "synaps-main", "acp", "--model", again},
	})
	cmd := exec.Command(node, "testdata/node/client.mjs", string(cmds), work)
	cmd.Env = append(os.Environ(), "SYNAPS_BASE_DIR="+base, "HOME="+base, "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, stderr.String())
	}
	var got struct {
		Init        map[string]any
		SessionID   string
		Prompts     []prompt
		Permissions []struct {
			Title, ToolCallID, Answer string
			Options                   []string
		}
		Cancelled prompt
		Load      struct {
			prompt
			ReplayedUsers   []string
			ReplayedUpdates int
		}
	}
	t.Logf("client saw: %s", out)
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %s: %v", out, err)
	}
	if diff := cmp.Diff(map[string]any{"protocolVersion": 1.0, "loadSession": true, "agent": "synaps"}, got.Init); diff != "" {
		t.Errorf("initialize (-want +got):\n%s", diff)
	}
	want := []prompt{
		{StopReason: "end_turn", Text: "Checking.Pushing.Cleaning.Done.", Calls: []string{
			"start execute in_progress echo hi", "end completed hi",
			"start execute in_progress git push --dry-run 2>/dev/null; echo pushed", "end completed pushed",
			"start execute in_progress rm -rf build", "end failed Tool call blocked by extension guard: no rm -rf",
		}},
		{StopReason: "end_turn", Text: "Pushing again.Not pushed.", Calls: []string{
			"start execute in_progress git push; touch pushed2", "end failed Tool call blocked by extension guard: the user declined: push to the remote?",
		}},
	}
	if diff := cmp.Diff(want, got.Prompts); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(work, "pushed2")); err == nil {
		t.Error("the rejected command ran")
	}
	if len(got.Permissions) != 2 || got.Permissions[0].ToolCallID == "" || !strings.Contains(got.Permissions[0].Title, "guard asks: push to the remote?") ||
		!cmp.Equal(got.Permissions[0].Options, []string{"allow_once", "reject_once"}) {
		t.Errorf("permission requests %+v", got.Permissions)
	}
	if got.Cancelled.StopReason != "cancelled" || len(got.Cancelled.Calls) == 0 || got.Cancelled.Calls[0] != "start execute in_progress sleep 30" {
		t.Errorf("cancelled turn %+v", got.Cancelled)
	}
	if !cmp.Equal(got.Load.ReplayedUsers, []string{"tidy up", "push again", "wait"}) || got.Load.StopReason != "end_turn" || got.Load.Text != "Back again." {
		t.Errorf("load %+v", got.Load)
	}
}

type prompt struct {
	StopReason string   `json:"stopReason"`
	Text       string   `json:"text"`
	Calls      []string `json:"calls"`
}

// TestNodeClientQuestionDiff: an edit the default mode asks about
// reaches the editor's session/request_permission with the change itself
// as the tool call's content, ACP's diff (absolute path, the file's whole
// old and new text), as the TUI's question shows it (issue 36 item 2).
func TestNodeClientQuestionDiff(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	if _, err := os.Stat("testdata/node/node_modules/@agentclientprotocol/sdk"); err != nil {
		t.Skip("the ACP TypeScript SDK is not installed: npm ci --prefix internal/acp/testdata/node (.ci/run does)")
	}
	base := t.TempDir()
	work := filepath.Join(base, "work")
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("one\ntwo\n"), 0o644)
	model := filepath.Join(base, "edit.jsonl")
	os.WriteFile(model, []byte(`{"text":"Editing.","tool_calls":[{"name":"edit","input":{"path":"notes.txt","old_string":"one","new_string":"ONE"}}]}
{"text":"Edited."}
`), 0o644)
	self, _ := os.Executable()
	cmds, _ := json.Marshal(map[string][]string{"edit": {self, "synaps-main", "acp", "--model", "script:" + model, "--no-extensions"}})
	cmd := exec.Command(node, "testdata/node/client.mjs", string(cmds), work)
	cmd.Env = append(os.Environ(), "SYNAPS_BASE_DIR="+base, "HOME="+base, "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, stderr.String())
	}
	t.Logf("client saw: %s", out)
	var got struct {
		Edit        prompt
		Permissions []struct {
			Answer  string
			Content []map[string]any
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %s: %v", out, err)
	}
	if len(got.Permissions) != 1 {
		t.Fatalf("%d permission requests, want 1 (the edit's)", len(got.Permissions))
	}
	want := []map[string]any{{"type": "diff", "path": filepath.Join(work, "notes.txt"), "oldText": "one\ntwo\n", "newText": "ONE\ntwo\n"}}
	if d := cmp.Diff(want, got.Permissions[0].Content); d != "" {
		t.Errorf("the question's content (-want +got):\n%s", d)
	}
	if got.Edit.Text != "Editing.Edited." {
		t.Errorf("turn %+v", got.Edit)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(b) != "ONE\ntwo\n" {
		t.Errorf("notes.txt = %q after the allowed edit", b)
	}
}
