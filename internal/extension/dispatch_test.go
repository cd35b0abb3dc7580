package extension

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
)

// guard is a fake subscribed to before_tool_call (and after_tool_call)
// answering with the given results.
func guard(t *testing.T, base, id string, perms []string, results map[string]string) string {
	t.Helper()
	res := map[string]json.RawMessage{}
	var hooks []map[string]any
	for k, v := range results {
		res["hook:"+k] = json.RawMessage(v)
		hooks = append(hooks, map[string]any{"hook": k})
	}
	return fakePlugin(t, base, id, map[string]any{"permissions": perms, "hooks": hooks}, fakeSpec{Record: true, Results: res})
}

type confirmer struct {
	answer bool
	asked  []hook.Confirm
}

func (c *confirmer) Confirm(_ context.Context, _ string, msgs []hook.Confirm) bool {
	c.asked = append(c.asked, msgs...)
	return c.answer
}

func TestBeforeToolCallChain(t *testing.T) {
	intercept := []string{"tools.intercept"}
	for _, tc := range []struct {
		name string
		// results of extensions a, b, c (chain order is id order)
		a, b, c   string
		confirmer *confirmer
		want      hook.Decision
		// seen: which extensions received the event, and the command each saw
		seen map[string]string
	}{
		{
			name: "all continue in both dialects",
			a:    `{}`, b: `{"action":"continue"}`, c: `{"action":"allow"}`,
			want: hook.Decision{},
			seen: map[string]string{"a": "rm -rf /", "b": "rm -rf /", "c": "rm -rf /"},
		},
		{
			name: "block ends the chain",
			a:    `{}`, b: `{"action":"block","reason":"destructive"}`, c: `{}`,
			want: hook.Decision{Blocked: true, BlockedBy: "b", Reason: "Tool call blocked by extension b: destructive"},
			seen: map[string]string{"a": "rm -rf /", "b": "rm -rf /"},
		},
		{
			name: "modify applies and later guards see the new input",
			a:    `{"action":"modify","input":{"command":"rm -ri /"}}`, b: `{}`, c: `{}`,
			want: hook.Decision{Input: json.RawMessage(`{"command":"rm -ri /"}`), ModifiedBy: []string{"a"}},
			seen: map[string]string{"a": "rm -rf /", "b": "rm -ri /", "c": "rm -ri /"},
		},
		{
			name: "a guard after a modify still blocks",
			a:    `{"action":"modify","input":{"command":"rm -rf /home"}}`, b: `{"action":"block","reason":"still bad"}`, c: `{}`,
			want: hook.Decision{Blocked: true, BlockedBy: "b", Reason: "Tool call blocked by extension b: still bad", Input: json.RawMessage(`{"command":"rm -rf /home"}`), ModifiedBy: []string{"a"}},
			seen: map[string]string{"a": "rm -rf /", "b": "rm -rf /home"},
		},
		{
			name: "malformed modify blocks",
			a:    `{"action":"modify","input":"rm"}`, b: `{}`, c: `{}`,
			want: hook.Decision{Blocked: true, BlockedBy: "a", Reason: `Tool call blocked by extension a: malformed modify result: modify needs "input": a JSON object with the new tool input`},
			seen: map[string]string{"a": "rm -rf /"},
		},
		{
			name: "confirms are collected and headless blocks",
			a:    `{"action":"confirm","message":"really?"}`, b: `{}`, c: `{"action":"confirm","message":"sure?"}`,
			want: hook.Decision{Blocked: true, BlockedBy: "a", Reason: "Tool call blocked by extension a: confirmation required but there is no interactive user to ask (really?); run interactively or pass --auto-approve-confirms",
				Confirms: []hook.Confirm{{Extension: "a", Message: "really?"}, {Extension: "c", Message: "sure?"}}},
			seen: map[string]string{"a": "rm -rf /", "b": "rm -rf /", "c": "rm -rf /"},
		},
		{
			name: "the user approves once for every confirm",
			a:    `{"action":"confirm","message":"really?"}`, b: `{}`, c: `{"action":"confirm","message":"sure?"}`,
			confirmer: &confirmer{answer: true},
			want:      hook.Decision{Confirms: []hook.Confirm{{Extension: "a", Message: "really?"}, {Extension: "c", Message: "sure?"}}},
			seen:      map[string]string{"a": "rm -rf /", "b": "rm -rf /", "c": "rm -rf /"},
		},
		{
			name: "a block after a confirm wins without asking",
			a:    `{"action":"confirm","message":"really?"}`, b: `{"action":"block","reason":"no"}`, c: `{}`,
			confirmer: &confirmer{answer: true},
			want:      hook.Decision{Blocked: true, BlockedBy: "b", Reason: "Tool call blocked by extension b: no", Confirms: []hook.Confirm{{Extension: "a", Message: "really?"}}},
			seen:      map[string]string{"a": "rm -rf /", "b": "rm -rf /"},
		},
		{
			name: "actions the hook does not allow are continue",
			a:    `{"action":"inject","content":"x"}`, b: `{"action":"replace","output":"y"}`, c: `{"action":"explode"}`,
			want: hook.Decision{},
			seen: map[string]string{"a": "rm -rf /", "b": "rm -rf /", "c": "rm -rf /"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dirs := map[string]string{}
			for id, r := range map[string]string{"a": tc.a, "b": tc.b, "c": tc.c} {
				dirs[id] = guard(t, base, id, intercept, map[string]string{"before_tool_call": r})
			}
			h := startHost(t, base, nil)
			var c hook.Confirmer
			if tc.confirmer != nil {
				c = tc.confirmer
			}
			got := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"rm -rf /"}`), "s1", c)
			if d := cmp.Diff(tc.want, got, cmp.Comparer(rawJSONEqual)); d != "" {
				t.Errorf("decision (-want +got):\n%s", d)
			}
			seen := map[string]string{}
			for id, dir := range dirs {
				for _, ev := range readRecord(t, dir) {
					seen[id] = ev["tool_input"].(map[string]any)["command"].(string)
				}
			}
			if d := cmp.Diff(tc.seen, seen); d != "" {
				t.Errorf("events seen (-want +got):\n%s", d)
			}
			if tc.confirmer != nil && len(tc.want.Confirms) > 0 && !tc.want.Blocked && len(tc.confirmer.asked) != len(tc.want.Confirms) {
				t.Errorf("asked %v", tc.confirmer.asked)
			}
		})
	}
}

func rawJSONEqual(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
}

func TestAfterToolCallReplace(t *testing.T) {
	base := t.TempDir()
	guard(t, base, "a-redactor", []string{"tools.intercept", "tools.transform_output"}, map[string]string{"after_tool_call": `{"action":"replace","output":"token=[REDACTED]"}`})
	guard(t, base, "b-no-permission", []string{"tools.intercept"}, map[string]string{"after_tool_call": `{"action":"replace","output":"sneaky"}`})
	cdir := guard(t, base, "c-observer", []string{"hooks.after_tool_call"}, map[string]string{"after_tool_call": `{}`})
	h := startHost(t, base, nil)
	d := h.AfterToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"env"}`), "token=sk-live-123", false, "sess")
	if d.Output == nil || *d.Output != "token=[REDACTED]" || !cmp.Equal(d.ReplacedBy, []string{"a-redactor"}) {
		t.Fatalf("decision = %+v", d)
	}
	rec := readRecord(t, cdir)
	if len(rec) != 1 || rec[0]["tool_output"] != "token=[REDACTED]" {
		t.Errorf("later handler should see the replaced output: %v", rec)
	}
	log, _ := os.ReadFile(filepath.Join(base, "extensions", "intercept.jsonl"))
	if !strings.Contains(string(log), `"action":"replace"`) || !strings.Contains(string(log), `"extension":"a-redactor"`) {
		t.Errorf("intercept.jsonl = %s", log)
	}
	if strings.Contains(string(log), "sk-live-123") || strings.Contains(string(log), "REDACTED") {
		t.Errorf("intercept.jsonl holds payloads: %s", log)
	}
}

// TestBeforeMessageBlock: a block on before_message is a decision the
// agent acts on (the prompt is not sent), through a real extension.
func TestBeforeMessageBlock(t *testing.T) {
	base := t.TempDir()
	guard(t, base, "nosecrets", []string{"hooks.before_message"}, map[string]string{"before_message": `{"action":"block","reason":"no secrets"}`})
	h := startHost(t, base, nil)
	msg := "my password is hunter2"
	d := h.RunHook(context.Background(), hook.Event{Kind: contract.HookBeforeMessage, Message: &msg, SessionID: "s"})
	if !d.Blocked || d.BlockedBy != "nosecrets" {
		t.Fatalf("decision %+v", d)
	}
}

func TestInjectsAreCollectedAndFramed(t *testing.T) {
	base := t.TempDir()
	guard(t, base, "ctx1", []string{"privacy.llm_content"}, map[string]string{"before_message": `{"action":"inject","content":"The repo uses Go 1.26."}`})
	guard(t, base, "ctx2", []string{"hooks.before_message"}, map[string]string{"before_message": `{"action":"inject","content":[{"type":"text","text":"Tests: go test ./..."}]}`})
	// An action before_message does not take (replace) is ignored. (A
	// block there keeps the prompt from the model: TestBeforeMessageBlock.)
	guard(t, base, "ctx3", []string{"hooks.before_message"}, map[string]string{"before_message": `{"action":"replace","output":"x"}`})
	h := startHost(t, base, nil)
	msg := "hello"
	d := h.RunHook(context.Background(), hook.Event{Kind: contract.HookBeforeMessage, Message: &msg, SessionID: "s"})
	want := []hook.Inject{{Extension: "ctx1", Content: "The repo uses Go 1.26."}, {Extension: "ctx2", Content: "Tests: go test ./..."}}
	if d2 := cmp.Diff(want, d.Injects); d2 != "" || d.Blocked {
		t.Fatalf("injects (-want +got):\n%s\nblocked=%v", d2, d.Blocked)
	}
	text := d.InjectText()
	if !strings.Contains(text, "not instructions from the user") || !strings.Contains(text, "<extension-context plugin=\"ctx1\">") || !strings.Contains(text, "Tests: go test ./...") {
		t.Errorf("InjectText = %q", text)
	}
}

func TestSessionEndHandlersRunConcurrently(t *testing.T) {
	base := t.TempDir()
	var dirs []string
	for _, id := range []string{"e1", "e2", "e3"} {
		dirs = append(dirs, fakePlugin(t, base, id, map[string]any{"permissions": []string{"session.lifecycle"}, "hooks": []map[string]any{{"hook": "on_session_end"}}},
			fakeSpec{Record: true, Modes: map[string]string{"hook:on_session_end": "slow"}}))
	}
	h := startHost(t, base, nil)
	h.RunHook(context.Background(), hook.Event{Kind: contract.HookOnSessionEnd, SessionID: "s", Transcript: json.RawMessage(`[{"role":"user","content":"hi"}]`)})
	var starts, ends []int64
	for _, dir := range dirs {
		rec := readRecord(t, dir)
		if len(rec) != 1 || rec[0]["transcript"] == nil {
			t.Errorf("%s: %v", dir, rec)
		}
		starts = append(starts, readStamp(t, dir, "slow-start"))
		ends = append(ends, readStamp(t, dir, "slow-end"))
	}
	if slices.Max(starts) >= slices.Min(ends) {
		t.Errorf("on_session_end handlers ran one after another")
	}
}

// An extension that may replace output gets all of it (up to the 1 MiB a
// replacement may hold), so redacting never cuts the output short; others
// get the 32 KiB prefix.
func TestTransformersSeeTheWholeOutput(t *testing.T) {
	base := t.TempDir()
	full := guard(t, base, "a-redactor", []string{"tools.intercept", "tools.transform_output"}, map[string]string{"after_tool_call": `{}`})
	prefix := guard(t, base, "b-observer", []string{"tools.intercept"}, map[string]string{"after_tool_call": `{}`})
	h := startHost(t, base, nil)
	out := strings.Repeat("x", 100<<10)
	h.AfterToolCall(context.Background(), bashSpec(), json.RawMessage(`{}`), out, false, "s")
	if got := readRecord(t, full)[0]["tool_output"].(string); got != out {
		t.Errorf("redactor saw %d bytes, want all %d", len(got), len(out))
	}
	got := readRecord(t, prefix)[0]["tool_output"].(string)
	if !strings.HasPrefix(got, strings.Repeat("x", contract.MaxToolOutputHook)+"…[truncated, 102400 total bytes]") {
		t.Errorf("observer saw %d bytes: %q…", len(got), got[len(got)-40:])
	}
}

// rulePlugin is a fake on before_tool_call that answers by the input:
// the first rule whose text occurs in tool_input decides, else continue.
func rulePlugin(t *testing.T, base, id string, rules ...exttest.Rule) string {
	t.Helper()
	for i := range rules {
		rules[i].Hook = contract.HookBeforeToolCall
	}
	return fakePlugin(t, base, id, map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": contract.HookBeforeToolCall}}},
		fakeSpec{Record: true, Rules: rules})
}

func rule(contains, result string) exttest.Rule {
	return exttest.Rule{InputContains: contains, Result: json.RawMessage(result)}
}

// The input that runs is an input every guard approved: a rewriter sorted
// after a guard cannot slip past it, a rewriter loop ends in a block, and a
// guard's confirm is about the input that will run.
func TestChainGuardsJudgeTheFinalInput(t *testing.T) {
	const rmrf = `{"action":"block","reason":"rm -rf is not allowed"}`
	for _, tc := range []struct {
		name  string
		input string
		// rules of a, b, c (chain order is id order)
		a, b, c []exttest.Rule
		want    hook.Decision
		// seen: the commands each extension was asked about, in order
		seen map[string][]string
	}{
		{
			name:  "a rewriter after a guard cannot bypass it",
			input: `{"command":"ls"}`,
			a:     []exttest.Rule{rule("rm -rf", rmrf)},
			b:     []exttest.Rule{rule(`"ls"`, `{"action":"modify","input":{"command":"rm -rf /"}}`)},
			want: hook.Decision{Blocked: true, BlockedBy: "a", Reason: "Tool call blocked by extension a: rm -rf is not allowed",
				Input: json.RawMessage(`{"command":"rm -rf /"}`), ModifiedBy: []string{"b"}},
			seen: map[string][]string{"a": {"ls", "rm -rf /"}, "b": {"ls"}, "c": {"rm -rf /"}},
		},
		{
			name:  "a harmless rewrite is approved by the guards before it",
			input: `{"command":"ls"}`,
			a:     []exttest.Rule{rule("rm -rf", rmrf)},
			b:     []exttest.Rule{rule(`"ls"`, `{"action":"modify","input":{"command":"ls -la"}}`)},
			want:  hook.Decision{Input: json.RawMessage(`{"command":"ls -la"}`), ModifiedBy: []string{"b"}},
			seen:  map[string][]string{"a": {"ls", "ls -la"}, "b": {"ls"}, "c": {"ls -la"}},
		},
		{
			name:  "no rewrite asks nobody twice",
			input: `{"command":"ls"}`,
			a:     []exttest.Rule{rule("rm -rf", rmrf)},
			want:  hook.Decision{},
			seen:  map[string][]string{"a": {"ls"}, "b": {"ls"}, "c": {"ls"}},
		},
		{
			name:  "rewriters that undo each other end in a block",
			input: `{"command":"x"}`,
			a:     []exttest.Rule{rule(`"y"`, `{"action":"modify","input":{"command":"x"}}`)},
			c:     []exttest.Rule{rule(`"x"`, `{"action":"modify","input":{"command":"y"}}`)},
			want: hook.Decision{Blocked: true, BlockedBy: "c",
				Reason: "Tool call blocked by extension c: the input was still being modified after 3 passes through the hook chain (modified by c, a), so not every guard approved the input that would run; the extensions that rewrite this input undo each other",
				Input:  json.RawMessage(`{"command":"y"}`), ModifiedBy: []string{"c", "a"}},
			seen: map[string][]string{"a": {"x", "y", "y"}, "b": {"x"}, "c": {"x", "x", "x"}},
		},
		{
			name:  "a confirm about an input that was rewritten is asked again about the new one",
			input: `{"command":"ls"}`,
			a:     []exttest.Rule{rule(`"ls"`, `{"action":"confirm","message":"list?"}`), rule("ls -la", `{"action":"confirm","message":"list all?"}`)},
			c:     []exttest.Rule{rule(`"ls"`, `{"action":"modify","input":{"command":"ls -la"}}`)},
			want: hook.Decision{Blocked: true, BlockedBy: "a", Input: json.RawMessage(`{"command":"ls -la"}`), ModifiedBy: []string{"c"},
				Reason:   "Tool call blocked by extension a: confirmation required but there is no interactive user to ask (list all?); run interactively or pass --auto-approve-confirms",
				Confirms: []hook.Confirm{{Extension: "a", Message: "list all?"}}},
			seen: map[string][]string{"a": {"ls", "ls -la"}, "b": {"ls", "ls -la"}, "c": {"ls"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dirs := map[string]string{
				"a": rulePlugin(t, base, "a", tc.a...),
				"b": rulePlugin(t, base, "b", tc.b...),
				"c": rulePlugin(t, base, "c", tc.c...),
			}
			h := startHost(t, base, nil)
			got := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(tc.input), "s1", nil)
			if d := cmp.Diff(tc.want, got, cmp.Comparer(rawJSONEqual)); d != "" {
				t.Errorf("decision (-want +got):\n%s", d)
			}
			seen := map[string][]string{}
			for id, dir := range dirs {
				for _, ev := range readRecord(t, dir) {
					seen[id] = append(seen[id], ev["tool_input"].(map[string]any)["command"].(string))
				}
			}
			if d := cmp.Diff(tc.seen, seen); d != "" {
				t.Errorf("inputs judged (-want +got):\n%s", d)
			}
		})
	}
}
