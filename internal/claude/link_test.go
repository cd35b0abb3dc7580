package claude

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// recorder is a synaps link after the Claude one in the chain: it records
// the input it was asked about.
type recorder struct{ seen []string }

func (r *recorder) ID() string              { return "z-guard" }
func (r *recorder) InputFault(error) string { return "" }
func (r *recorder) Gone() string            { return "" }
func (r *recorder) Handle(_ context.Context, _ contract.HookSpec, ev *hook.Event, _ json.RawMessage) (hook.Result, error) {
	r.seen = append(r.seen, string(ev.ToolInput))
	if strings.Contains(string(ev.ToolInput), "rm -rf") {
		return hook.Result{Action: contract.ActionBlock, Reason: "no rm -rf"}, nil
	}
	return hook.Result{Action: contract.ActionContinue}, nil
}

type answer bool

func (a answer) Confirm(context.Context, string, []hook.Confirm) bool { return bool(a) }

// chainWith builds a chain of a Claude link reading settings (hooks JSON
// with the scripts dir as $D) and the recorder after it.
func chainWith(t *testing.T, settings string, failClosed bool) (*hook.Chain, *recorder, string) {
	t.Helper()
	dir := t.TempDir()
	settings = strings.ReplaceAll(settings, "$D", dir)
	h, warnings, err := Parse("settings.json", []byte(settings))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	l := &Link{Name: "a-claude", Hooks: h, Env: []string{"PATH=" + os.Getenv("PATH")}, ProjectDir: dir}
	rec := &recorder{}
	table := hook.Table{}
	for _, sub := range l.Subscriptions() {
		table[sub.Hook] = append(table[sub.Hook], &hook.Entry{Link: l, Subs: []hook.Subscription{sub}, FailClosed: failClosed, Transform: true})
	}
	table[contract.HookBeforeToolCall] = append(table[contract.HookBeforeToolCall], &hook.Entry{Link: rec, Subs: []hook.Subscription{{Hook: contract.HookBeforeToolCall}}})
	c := hook.NewChain(hook.Options{})
	c.Set(table)
	return c, rec, dir
}

func script(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestLinkInTheChain(t *testing.T) {
	ctx := context.Background()
	pre := func(matcher, cmd string) string {
		return `{"hooks":{"PreToolUse":[{"matcher":"` + matcher + `","hooks":[{"type":"command","command":"` + cmd + `"}]}]}}`
	}

	t.Run("exit 2 blocks Bash with Claude's message", func(t *testing.T) {
		c, rec, dir := chainWith(t, pre("Bash", "$D/deny.sh"), false)
		script(t, dir, "deny.sh", "cat > $CLAUDE_PROJECT_DIR/payload.json; echo 'not on a Friday' >&2; exit 2\n")
		d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"ls"}`), "s-1", nil)
		if !d.Blocked || d.BlockedBy != "a-claude" || d.Reason != hook.Blocked("Claude Code hook (a-claude)", "PreToolUse:Bash hook error: ["+dir+"/deny.sh]: not on a Friday") {
			t.Errorf("decision %+v", d)
		}
		if len(rec.seen) != 0 {
			t.Errorf("a later link was asked after the block: %v", rec.seen)
		}
		var p map[string]any
		b, _ := os.ReadFile(filepath.Join(dir, "payload.json"))
		if err := json.Unmarshal(b, &p); err != nil || p["tool_name"] != "Bash" || p["hook_event_name"] != "PreToolUse" || p["session_id"] != "s-1" {
			t.Errorf("payload %s", b)
		}
	})

	t.Run("a matcher that does not select the tool starts nothing", func(t *testing.T) {
		c, _, dir := chainWith(t, pre("Write|Edit", "touch $D/ran"), false)
		if d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"ls"}`), "s", nil); d.Blocked {
			t.Errorf("blocked: %+v", d)
		}
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Error("the hook ran for a tool its matcher does not select")
		}
	})

	t.Run("updatedInput is translated back, and a later guard judges it", func(t *testing.T) {
		c, rec, dir := chainWith(t, pre("Bash", "$D/rewrite.sh"), false)
		script(t, dir, "rewrite.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -rf build","description":"x","timeout":1500}}}'`+"\n")
		d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"ls"}`), "s", nil)
		if !d.Blocked || d.BlockedBy != "z-guard" {
			t.Errorf("the guard after the rewrite did not block it: %+v", d)
		}
		if len(rec.seen) == 0 || rec.seen[len(rec.seen)-1] != `{"command":"rm -rf build","timeout":2}` {
			t.Errorf("the guard saw %q", rec.seen)
		}
	})

	t.Run("ask becomes one confirm", func(t *testing.T) {
		c, _, dir := chainWith(t, pre("Bash", "$D/ask.sh"), false)
		script(t, dir, "ask.sh", `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"push to main?"}}'`+"\n")
		d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"git push"}`), "s", answer(false))
		if !d.Blocked {
			t.Errorf("declined confirm ran the tool: %+v", d)
		}
		d = c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"git push"}`), "s", answer(true))
		if d.Blocked {
			t.Errorf("approved confirm blocked: %+v", d)
		}
	})

	t.Run("a failing hook is skipped, or blocks when fail-closed", func(t *testing.T) {
		c, _, _ := chainWith(t, pre("*", "exit 1"), false)
		if d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"ls"}`), "s", nil); d.Blocked {
			t.Errorf("fail-open hook blocked: %+v", d)
		}
		c, _, _ = chainWith(t, pre("*", "exit 1"), true)
		if d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"ls"}`), "s", nil); !d.Blocked || !strings.Contains(d.Reason, "exited with code 1") {
			t.Errorf("fail-closed hook did not block: %+v", d)
		}
	})

	t.Run("prompt and start context are injected", func(t *testing.T) {
		c, _, _ := chainWith(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo branch main"}]}],"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"additionalContext\":\"be brief\"}}'"}]}]}}`, false)
		msg := "hi"
		d := c.Run(ctx, hook.Event{Kind: contract.HookBeforeMessage, Message: &msg, SessionID: "s"})
		if len(d.Injects) != 1 || d.Injects[0].Content != "branch main" {
			t.Errorf("prompt injects %+v", d.Injects)
		}
		d = c.Run(ctx, hook.Event{Kind: contract.HookOnSessionStart, SessionID: "s"})
		if len(d.Injects) != 1 || d.Injects[0].Content != "be brief" {
			t.Errorf("start injects %+v", d.Injects)
		}
	})

	t.Run("an if filter runs the hook only for the calls its rule names", func(t *testing.T) {
		c, _, _ := chainWith(t, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2","if":"Bash(git commit:*)"}]}]}}`, false)
		if d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"ls"}`), "s", nil); d.Blocked {
			t.Errorf("ls blocked by a hook for git commit: %+v", d)
		}
		if d := c.BeforeToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"git add . && git commit -m x"}`), "s", nil); !d.Blocked {
			t.Errorf("git commit ran past its hook: %+v", d)
		}
	})

	t.Run("a failed call is PostToolUseFailure, with Claude's error text", func(t *testing.T) {
		c, _, dir := chainWith(t, `{"hooks":{"PostToolUseFailure":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > $D/failure.json; echo '{\"hookSpecificOutput\":{\"additionalContext\":\"check the exit code\"}}'"}]}]}}`, false)
		if d := c.AfterToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"true"}`), "ok", false, "s"); len(d.Contexts) != 0 {
			t.Errorf("a successful call reached PostToolUseFailure: %+v", d)
		}
		d := c.AfterToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"false"}`), "exit status 1", true, "s")
		if len(d.Contexts) != 1 || d.Contexts[0].Content != "check the exit code" {
			t.Errorf("contexts %+v", d.Contexts)
		}
		var p map[string]any
		b, _ := os.ReadFile(filepath.Join(dir, "failure.json"))
		if err := json.Unmarshal(b, &p); err != nil || p["hook_event_name"] != "PostToolUseFailure" || p["error"] != "Exit code 1" || p["tool_response"] != nil {
			t.Errorf("payload %s", b)
		}
	})

	t.Run("SessionStart matchers see why the session starts", func(t *testing.T) {
		c, _, _ := chainWith(t, `{"hooks":{"SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"echo welcome back"}]}]}}`, false)
		if d := c.Run(ctx, hook.Event{Kind: contract.HookOnSessionStart, SessionID: "s", StartSource: "startup"}); len(d.Injects) != 0 {
			t.Errorf("a resume hook ran at startup: %+v", d.Injects)
		}
		d := c.Run(ctx, hook.Event{Kind: contract.HookOnSessionStart, SessionID: "s", StartSource: "resume"})
		if len(d.Injects) != 1 || d.Injects[0].Content != "welcome back" {
			t.Errorf("resume injects %+v", d.Injects)
		}
	})

	t.Run("updatedToolOutput replaces the result", func(t *testing.T) {
		c, _, _ := chainWith(t, `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"updatedToolOutput\":\"[redacted]\"}}'"}]}]}}`, false)
		d := c.AfterToolCall(ctx, "bash", "bash", json.RawMessage(`{"command":"env"}`), "SECRET=1", false, "s")
		if d.Output == nil || *d.Output != "[redacted]" {
			t.Errorf("output %+v", d)
		}
	})
}

// on_notification is Claude's Notification: the matcher is tested
// against notification_type, and the payload has the message.
func TestLinkNotification(t *testing.T) {
	c, _, dir := chainWith(t, `{"hooks":{"Notification":[
		{"matcher":"permission_prompt","hooks":[{"type":"command","command":"cat > $D/asked.json"}]},
		{"matcher":"idle_prompt","hooks":[{"type":"command","command":"touch $D/idle"}]}]}}`, false)
	msg := "synaps needs your permission to use bash"
	c.Run(context.Background(), hook.Event{Kind: contract.HookOnNotification, SessionID: "s", Message: &msg,
		Data: json.RawMessage(`{"notification_type":"permission_prompt","title":"synaps"}`)})
	var got map[string]any
	b, err := os.ReadFile(filepath.Join(dir, "asked.json"))
	if err != nil || json.Unmarshal(b, &got) != nil {
		t.Fatalf("the permission_prompt hook did not run: %v %s", err, b)
	}
	if got["hook_event_name"] != "Notification" || got["message"] != msg || got["notification_type"] != "permission_prompt" {
		t.Errorf("payload = %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "idle")); err == nil {
		t.Error("the idle_prompt group ran for a permission_prompt")
	}
}

// Stop is the end of the model's turn: a message that calls tools is
// on_message_complete in synaps but no Stop in Claude Code, so the hook
// runs only for the final message (claude-compat.md).
func TestLinkStopOnlyAtTheEndOfTheTurn(t *testing.T) {
	c, _, dir := chainWith(t, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"cat >> $D/stops.jsonl; echo >> $D/stops.jsonl"}]}]}}`, false)
	for _, m := range []struct{ text, data string }{
		{"checking", `{"content_block_count":2,"has_tool_use":true,"stop_hook_active":false}`},
		{"all done", `{"content_block_count":1,"has_tool_use":false,"stop_hook_active":false}`},
	} {
		text := m.text
		c.Run(context.Background(), hook.Event{Kind: contract.HookOnMessageComplete, SessionID: "s", Message: &text, Data: json.RawMessage(m.data)})
	}
	b, err := os.ReadFile(filepath.Join(dir, "stops.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p struct {
			Last string `json:"last_assistant_message"`
		}
		if json.Unmarshal([]byte(line), &p) == nil {
			got = append(got, p.Last)
		}
	}
	if len(got) != 1 || got[0] != "all done" {
		t.Errorf("Stop ran for %q; want only the final message, \"all done\"", got)
	}
}
