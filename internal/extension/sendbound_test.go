package extension

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
)

// deepInput is a bash input with an extra property nested n levels deep.
func deepInput(command string, n int) json.RawMessage {
	return json.RawMessage(`{"command":"` + command + `","x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
}

// An input that breaks a fail-open guard cannot switch it off: an event
// too deep to send is blocked without being sent, an input that crashes
// the guard on the call and on its retry is blocked and the guard is
// restarted, and however often that happens, the next plain rm -rf is
// still judged by the guard.
func TestInputThatBreaksAGuardCannotSwitchItOff(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "guard", map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": contract.HookBeforeToolCall}}},
		fakeSpec{Record: true, Rules: []exttest.Rule{
			{Hook: contract.HookBeforeToolCall, InputContains: "poison", Crash: true},
			{Hook: contract.HookBeforeToolCall, InputContains: "rm -rf", Result: json.RawMessage(`{"action":"block","reason":"no rm -rf"}`)},
		}})
	h := startHost(t, base, nil)
	call := func(input json.RawMessage) hook.Decision {
		return h.BeforeToolCall(context.Background(), bashSpec(), input, "s", nil)
	}

	d := call(deepInput("ls", 5000))
	if !d.Blocked || d.BlockedBy != "guard" || !strings.Contains(d.Reason,
		"the extension could not judge this call: the before_tool_call event nests objects and arrays more than 100 levels deep, so it was not sent to the extension; send a smaller or flatter input; an input a guard cannot judge does not run, whatever its failure_policy") {
		t.Errorf("deep input: %+v", d)
	}
	if rec := readRecord(t, dir); len(rec) != 0 {
		t.Errorf("the guard was sent the deep input: %d records", len(rec))
	}
	if d := call(deepInput("ls", 90)); d.Blocked {
		t.Errorf("an input within the bound was blocked: %s", d.Reason)
	}

	for i := 0; i < 3; i++ {
		d := call(json.RawMessage(`{"command":"echo poison"}`))
		if !d.Blocked || !strings.Contains(d.Reason, "the extension crashed on this input twice, also after a restart (") ||
			!strings.Contains(d.Reason, "it is restarted for the next call; an input a guard cannot judge does not run, whatever its failure_policy") {
			t.Errorf("poisoned call %d: %+v", i+1, d)
		}
	}
	if d := call(json.RawMessage(`{"command":"rm -rf /"}`)); !d.Blocked || d.Reason != "Tool call blocked by extension guard: no rm -rf" {
		t.Errorf("after the poisoned calls the plain rm -rf was not judged by the guard: %+v (%+v)", d, statusOf(t, h, "guard"))
	}
	if st := statusOf(t, h, "guard"); st.State == StateFailed {
		t.Errorf("the guard ended failed: %+v", st)
	}
}

// An extension tool is never sent an input beyond the bounds: the model
// gets an error result saying why, and the extension keeps running.
func TestExtensionToolInputIsBounded(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "deep", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Record: true,
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"t","description":"d","input_schema":{"type":"object"}}]}}`)})
	h := startHost(t, base, nil)
	res := callTool(t, h, "deep_t", `{"x":`+strings.Repeat("[", 200)+strings.Repeat("]", 200)+`}`)
	if !res.IsError || res.Output != "extension deep: the input of tool t nests objects and arrays more than 100 levels deep, so it was not sent to the extension; send a smaller or flatter input" {
		t.Errorf("result = %+v", res)
	}
	if rec := readRecord(t, dir); len(rec) != 0 {
		t.Errorf("the extension was sent the input")
	}
	if res := callTool(t, h, "deep_t", `{"x":[[1]]}`); res.IsError {
		t.Errorf("a plain input failed: %+v", res)
	}
}

// A provider.complete request beyond the bounds is not sent: the model
// call fails with the reason, and the extension keeps serving.
func TestProviderRequestIsBounded(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "prov", map[string]any{"permissions": []string{"providers.register"}}, fakeSpec{Record: true,
		Init:    json.RawMessage(`{"protocol_version":1,"capabilities":{"providers":[{"id":"p","models":["m"]}]}}`),
		Results: map[string]json.RawMessage{"provider.complete": json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)}})
	h := startHost(t, base, nil)
	p, err := h.Provider("prov:p:m")
	if err != nil {
		t.Fatal(err)
	}
	deep := llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: "t1", Name: "bash", Input: deepInput("ls", 200)}}}
	_, err = p.Complete(context.Background(), &llm.Request{Messages: []llm.Message{deep}}, func(llm.Event) {})
	if err == nil || !strings.Contains(err.Error(), "model prov:p:m: the provider.complete request nests objects and arrays more than 100 levels deep, so it was not sent to the extension") {
		t.Errorf("deep request: err = %v", err)
	}
	if rec := readRecord(t, dir); len(rec) != 0 {
		t.Errorf("the extension was sent the request")
	}
	hi := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}}
	if _, err := p.Complete(context.Background(), &llm.Request{Messages: []llm.Message{hi}}, func(llm.Event) {}); err != nil {
		t.Errorf("a plain request failed: %v", err)
	}
}
