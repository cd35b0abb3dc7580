package extension

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// beginHost is startHost with Begin instead of Start: it returns while
// the extensions start.
func beginHost(t *testing.T, base string, mod func(*Options)) *Host {
	t.Helper()
	o := Options{BaseDir: base, Version: "test", Getenv: func(k string) string {
		if k == TraceEnv {
			return ""
		}
		return os.Getenv(k)
	}}
	if mod != nil {
		mod(&o)
	}
	h := NewHost(o)
	h.env.stop = stopTimeouts{reply: 500 * time.Millisecond, exit: 300 * time.Millisecond}
	h.Begin(context.Background())
	t.Cleanup(func() {
		h.Shutdown()
		assertNoChildren(t)
	})
	return h
}

// openGate lets a "gate" fake answer initialize.
func openGate(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// notDone checks that ch has not delivered after a short look: a call
// that must wait for a start is still waiting.
func notDone[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case <-ch:
		t.Fatalf("%s did not wait for the extension's start", what)
	case <-time.After(100 * time.Millisecond):
	}
}

// A guard started in the background holds its place in the chain: a tool
// call judged while it starts waits for it, and its block applies.
func TestBeginGuardJudgesCallsMadeWhileItStarts(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept"},
	}, fakeSpec{InitMode: "gate",
		Init:    json.RawMessage(`{"protocol_version":1,"capabilities":{"hooks":[{"hook":"before_tool_call","tool":"bash"}]}}`),
		Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"no"}`)}})
	h := beginHost(t, base, nil)
	if st := statusOf(t, h, "guard"); st.State != StateStarting {
		t.Fatalf("right after Begin: state %s, want starting", st.State)
	}
	got := make(chan hook.Decision, 1)
	go func() {
		got <- h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"rm -rf /"}`), "s", nil)
	}()
	notDone(t, got, "before_tool_call")
	openGate(t, dir)
	if d := <-got; !d.Blocked || !strings.Contains(d.Reason, "no") {
		t.Fatalf("decision = %+v, want the guard's block", d)
	}
	if st := statusOf(t, h, "guard"); st.State != StateLoaded {
		t.Errorf("after its start: state %s, want loaded", st.State)
	}
}

// A starting extension waits only for what it subscribes to: once up,
// an event it did not subscribe to (another tool, another hook) goes on
// without it.
func TestBeginStartingPlaceAnswersOnlyItsSubscriptions(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "reader-guard", map[string]any{
		"permissions": []string{"tools.intercept", "privacy.llm_content"},
	}, fakeSpec{InitMode: "gate", Record: true,
		Init:    json.RawMessage(`{"protocol_version":1,"capabilities":{"hooks":[{"hook":"before_tool_call","tool":"read"}]}}`),
		Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"no"}`)}})
	h := beginHost(t, base, nil)
	var wg sync.WaitGroup
	var bash, msg hook.Decision
	wg.Add(2)
	go func() {
		defer wg.Done()
		bash = h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	}()
	go func() {
		defer wg.Done()
		text := "hello"
		msg = h.RunHook(context.Background(), hook.Event{Kind: contract.HookBeforeMessage, Message: &text, SessionID: "s"})
	}()
	openGate(t, dir)
	wg.Wait()
	if bash.Blocked || msg.Blocked {
		t.Errorf("bash %+v, message %+v: the guard subscribed to read only", bash, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "record.jsonl")); err == nil {
		t.Errorf("the guard was sent events it did not subscribe to")
	}
}

// A request's tools wait for the extensions that may register some.
func TestBeginAwaitTools(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "tools", map[string]any{
		"permissions": []string{"tools.register"},
	}, fakeSpec{InitMode: "gate",
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hi","description":"says hi","input_schema":{"type":"object"}}]}}`)})
	h := beginHost(t, base, nil)
	if _, _, ok := h.Registry().Lookup("tools_hi"); ok {
		t.Fatal("the tool is registered before the extension started")
	}
	done := make(chan struct{})
	go func() {
		h.AwaitTools(context.Background())
		close(done)
	}()
	notDone(t, done, "AwaitTools")
	openGate(t, dir)
	<-done
	if _, _, ok := h.Registry().Lookup("tools_hi"); !ok {
		t.Fatalf("after AwaitTools: tools %v, want tools_hi", h.Registry().Names())
	}
}

// A start that fails in the background is said, not only listed.
func TestBeginFailureIsSaid(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "broken", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{InitMode: "crash"})
	said := make(chan string, 4)
	h := beginHost(t, base, func(o *Options) { o.Notify = func(m string) { said <- m } })
	h.AwaitTools(context.Background())
	select {
	case m := <-said:
		if !strings.Contains(m, "extension broken failed to load") {
			t.Errorf("notice %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notice of the failed start")
	}
}

// A model an extension provides, chosen while the extension still starts
// (the TUI opens with it configured), waits for the start instead of
// saying the extension declares no providers.
func TestBeginProviderWaitsForTheStart(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "prov", map[string]any{"permissions": []string{"providers.register"}}, fakeSpec{InitMode: "gate",
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"providers":[{"id":"echo","models":["m1"]}]}}`)})
	h := beginHost(t, base, nil)
	if got := h.Models(); len(got) != 0 {
		t.Errorf("Models while it starts = %v, want none listed yet", got)
	}
	type result struct{ err error }
	got := make(chan result, 1)
	go func() {
		_, err := h.Provider("prov:echo:m1")
		got <- result{err}
	}()
	notDone(t, got, "Provider")
	openGate(t, dir)
	if r := <-got; r.err != nil {
		t.Fatalf("Provider after the start: %v", r.err)
	}
}

// Options.Hold keeps every process back until it is closed (the terminal
// UI's first frame): nothing is spawned meanwhile, a request's tools wait,
// and once it is closed the extension starts as usual.
func TestBeginHoldKeepsProcessesBack(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "tools", map[string]any{
		"permissions": []string{"tools.register"},
	}, fakeSpec{InitMode: "slow",
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hi","description":"says hi","input_schema":{"type":"object"}}]}}`)})
	hold := make(chan struct{})
	h := beginHost(t, base, func(o *Options) { o.Hold = hold })
	done := make(chan struct{})
	go func() {
		h.AwaitTools(context.Background())
		close(done)
	}()
	notDone(t, done, "AwaitTools")
	if _, err := os.Stat(filepath.Join(dir, "init-start")); err == nil {
		t.Fatal("the extension was spawned while the hold was on")
	}
	close(hold)
	<-done
	if _, _, ok := h.Registry().Lookup("tools_hi"); !ok {
		t.Fatalf("after the hold: tools %v, want tools_hi", h.Registry().Names())
	}
	if _, err := os.Stat(filepath.Join(dir, "init-start")); err != nil {
		t.Errorf("after the hold: %v", err)
	}
}

// A session that ends while the hold is on spawns nothing.
func TestBeginHoldShutdownSpawnsNothing(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "tools", map[string]any{
		"permissions": []string{"tools.register"},
	}, fakeSpec{InitMode: "slow"})
	hold := make(chan struct{})
	h := beginHost(t, base, func(o *Options) { o.Hold = hold })
	h.Shutdown()
	close(hold)
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "init-start")); err == nil {
		t.Fatal("the extension was spawned after the session ended")
	}
}

// AwaitTools returns once the tools of the extensions it waited for are
// registered, not merely once their starts ended: the request that follows
// lists them. Nor does it wait for another extension's failure notice,
// which may wait on the terminal UI's loop (busy with /model, waiting for
// this start): here that notice is held while the tools extension starts.
func TestBeginAwaitToolsWaitsForTheRegistration(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "broken", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{InitMode: "crash"})
	dir := fakePlugin(t, base, "tools", map[string]any{
		"permissions": []string{"tools.register"},
	}, fakeSpec{InitMode: "gate",
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hi","description":"says hi","input_schema":{"type":"object"}}]}}`)})
	notified, unblock := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h := beginHost(t, base, func(o *Options) {
		o.Notify = func(string) {
			once.Do(func() {
				close(notified)
				<-unblock
			})
		}
	})
	defer close(unblock)
	<-notified // broken's notice: held
	openGate(t, dir)
	done := make(chan bool, 1)
	go func() {
		h.AwaitTools(context.Background())
		_, _, ok := h.Registry().Lookup("tools_hi")
		done <- ok
	}()
	select {
	case ok := <-done:
		if !ok {
			t.Fatalf("AwaitTools returned before tools_hi was registered: tools %v", h.Registry().Names())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AwaitTools waited on another extension's notice")
	}
}
