package extension

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
)

const helloInit = `{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Says hello","input_schema":{"type":"object"}}]}}`

// cacheState is what a status says of an extension's start.
type cacheState struct {
	Deferred bool
	Running  bool
	Tools    []string
}

func stateOf(t *testing.T, h *Host, id string) cacheState {
	t.Helper()
	st := statusOf(t, h, id)
	return cacheState{Deferred: st.Deferred, Running: st.PID != 0, Tools: st.Tools}
}

// TestInitCacheDefersToolsOnly: a tools-only extension is spawned at the
// first start and its answer cached; the next start registers its tool
// from the cache without spawning it, and the first call spawns it. An
// extension that hooks the session's events is spawned at every start
// (from its cached answer too). A plugin whose files changed is spawned
// again at start, and SYNAPS_EXTENSIONS_INIT_CACHE=0 turns the cache off.
func TestInitCacheDefersToolsOnly(t *testing.T) {
	base := t.TempDir()
	tools := fakePlugin(t, base, "tools", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Init: json.RawMessage(helloInit)})
	fakePlugin(t, base, "guard", map[string]any{"permissions": []string{"session.lifecycle"}, "hooks": []map[string]any{{"hook": contract.HookOnSessionStart}}}, fakeSpec{})
	start := func(env map[string]string) *Host {
		return startHost(t, base, func(o *Options) {
			o.Getenv = func(k string) string { return env[k] }
			o.InitCache = true
		})
	}
	running := cacheState{Running: true, Tools: []string{"tools_hello"}}
	deferred := cacheState{Deferred: true, Tools: []string{"tools_hello"}}
	guard := cacheState{Running: true}

	h := start(nil)
	check := func(step string, want, wantGuard cacheState) {
		t.Helper()
		if d := cmp.Diff(want, stateOf(t, h, "tools")); d != "" {
			t.Errorf("%s: tools (-want +got):\n%s", step, d)
		}
		waitRunning(t, h, "guard") // its start may still be under way
		if d := cmp.Diff(wantGuard, stateOf(t, h, "guard")); d != "" {
			t.Errorf("%s: guard (-want +got):\n%s", step, d)
		}
	}
	check("first start", running, guard)
	if _, err := os.Stat(filepath.Join(InitCacheDir(base), "guard.json")); err != nil {
		t.Errorf("the answer of an extension hooking the session's start was not cached: %v", err)
	}
	h.Shutdown()

	h = start(nil)
	check("cached start", deferred, guard)
	if res := callTool(t, h, "tools:hello", `{}`); res.IsError || res.Output != "ok" {
		t.Fatalf("first call of a deferred tool = %+v", res)
	}
	check("after its first call", running, guard)
	h.Shutdown()

	if err := os.WriteFile(filepath.Join(tools, "notes.txt"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	h = start(nil)
	check("after an edit", running, guard)
	h.Shutdown()

	h = start(map[string]string{InitCacheEnv: "0"})
	check("cache off", running, guard)
	h.Shutdown()

	n, err := ClearInitCache(base)
	if err != nil || n != 2 {
		t.Fatalf("ClearInitCache = %d, %v; want 2 entries", n, err)
	}
	h = start(nil)
	check("after clear", running, guard)
}

// staleEntry starts the extension id of base once, so that the cache
// holds its answer, and replaces that answer with result under the same
// key: as if another build of it had written the entry. It returns the
// entry's path.
func staleEntry(t *testing.T, base, id, result string) string {
	t.Helper()
	startHost(t, base, withCache).Shutdown()
	path := filepath.Join(InitCacheDir(base), id+".json")
	var ent initEntry
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ent); err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(initEntry{Key: ent.Key, Result: json.RawMessage(result)})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestInitCacheStaleAnswer: a cached answer that the extension no longer
// gives (the cache was written by another build of it) serves the start;
// the first call spawns the extension, whose answer then replaces the
// cached one in the session (a tool it no longer declares is gone from
// the registry, a changed description is the new one) and in the cache.
func TestInitCacheStaleAnswer(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "tools", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Init: json.RawMessage(helloInit)})
	path := staleEntry(t, base, "tools", `{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Old words","input_schema":{"type":"object"}},{"name":"gone","description":"Removed since","input_schema":{"type":"object"}}]}}`)
	h := startHost(t, base, withCache)
	if st := stateOf(t, h, "tools"); !st.Deferred || !slices.Equal(st.Tools, []string{"tools_hello", "tools_gone"}) {
		t.Fatalf("not deferred with the stale entry's tools: %+v", st)
	}
	descriptions := func() map[string]string {
		m := map[string]string{}
		for _, s := range h.Registry().Specs() {
			m[s.Name] = s.Description
		}
		return m
	}
	if d := cmp.Diff(map[string]string{"tools_hello": "Old words", "tools_gone": "Removed since"}, descriptions()); d != "" {
		t.Errorf("registry from the stale entry (-want +got):\n%s", d)
	}
	if res := callTool(t, h, "tools:hello", `{}`); res.IsError {
		t.Fatalf("call = %+v", res)
	}
	// The model's next request lists what the extension declares now.
	if d := cmp.Diff(map[string]string{"tools_hello": "Says hello"}, descriptions()); d != "" {
		t.Errorf("registry after the first call (-want +got):\n%s", d)
	}
	if st := stateOf(t, h, "tools"); !slices.Equal(st.Tools, []string{"tools_hello"}) {
		t.Errorf("status tools after the first call = %v", st.Tools)
	}
	h.Shutdown()
	h = startHost(t, base, withCache)
	if st := stateOf(t, h, "tools"); !st.Deferred || st.Running {
		t.Errorf("the start after a stale entry: %+v, want it deferred with the fresh answer", st)
	}
	data, _ := os.ReadFile(path)
	var now initEntry
	json.Unmarshal(data, &now)
	if string(now.Result) != helloInit {
		t.Errorf("cache entry after that start = %s, want the extension's answer %s", now.Result, helloInit)
	}
}

// TestInitCacheStaleToolIsNotSent: the model calls a tool of the cached
// answer that the process, once started, no longer declares. The call is
// not sent to the process under a name it does not have (it was, and an
// extension that answers every name ran it); the model reads why and
// what the extension declares now.
func TestInitCacheStaleToolIsNotSent(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "tools", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Init: json.RawMessage(helloInit)})
	staleEntry(t, base, "tools", `{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Says hello","input_schema":{"type":"object"}},{"name":"gone","description":"Removed since","input_schema":{"type":"object"}}]}}`)
	h := startHost(t, base, withCache)
	res := callTool(t, h, "tools:gone", `{}`)
	want := "extension tools no longer declares tool gone: its initialize answer changed since the session took it from the cache; the tools it declares now: hello"
	if !res.IsError || res.Output != want {
		t.Errorf("call of a tool no longer declared = %+v, want the error %q", res, want)
	}
	if res := callTool(t, h, "tools:hello", `{}`); res.IsError {
		t.Errorf("a tool still declared: %+v", res)
	}
}

// TestInitCacheDeferredStartFails: a deferred extension whose process
// cannot start any more fails its first call with the reason, is failed,
// and its entry is dropped so the next start spawns it at once.
func TestInitCacheDeferredStartFails(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "tools", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Init: json.RawMessage(helloInit)})
	h := startHost(t, base, withCache)
	h.Shutdown()
	var (
		mu   sync.Mutex
		told []string
	)
	h = startHost(t, base, func(o *Options) {
		o.InitCache = true
		o.Notify = func(msg string) { mu.Lock(); told = append(told, msg); mu.Unlock() }
	})
	// fake.json gone: the process exits before answering initialize.
	// The edit comes after the start took its key, as a plugin removed
	// while a session runs would.
	if err := os.Rename(filepath.Join(dir, "fake.json"), filepath.Join(dir, "fake.json.off")); err != nil {
		t.Fatal(err)
	}
	res := callTool(t, h, "tools:hello", `{}`)
	if !res.IsError {
		t.Fatalf("call of an extension that cannot start = %+v", res)
	}
	if st := statusOf(t, h, "tools"); st.State != StateFailed {
		t.Errorf("state = %s, want failed", st.State)
	}
	if _, err := os.Stat(filepath.Join(InitCacheDir(base), "tools.json")); err == nil {
		t.Error("the entry of an extension that failed to start is still cached")
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(told, func(m string) bool { return strings.HasPrefix(m, "extension tools failed to load: ") }) {
		t.Errorf("the user was not told of the failed start: %q", told)
	}
}

func withCache(o *Options) { o.InitCache = true }

// TestInitCacheOffByDefault: a host not asked for the cache (a listing)
// spawns every extension, cached or not.
func TestInitCacheOffByDefault(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "tools", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Init: json.RawMessage(helloInit)})
	h := startHost(t, base, withCache)
	h.Shutdown()
	h = startHost(t, base, nil)
	if st := stateOf(t, h, "tools"); st.Deferred || !st.Running {
		t.Errorf("a host without InitCache deferred an extension: %+v", st)
	}
}

// TestInitCacheDefersToolGuards: guards of tool calls are deferred too;
// the first tool call they must judge starts every deferred guard (the
// one for bash and the one for every tool alike) and is judged by them;
// a fail-closed guard that cannot start then blocks the call, as at a
// session's start.
func TestInitCacheDefersToolGuards(t *testing.T) {
	base := t.TempDir()
	guard := func(id string, policy string, spec fakeSpec) string {
		return fakePlugin(t, base, id, map[string]any{"permissions": []string{"tools.intercept"}, "failure_policy": policy,
			"hooks": []map[string]any{{"hook": contract.HookBeforeToolCall, "tool": "bash"}}}, spec)
	}
	guard("rm-guard", "open", fakeSpec{Rules: []exttest.Rule{{Hook: contract.HookBeforeToolCall, InputContains: "rm -rf", Result: json.RawMessage(`{"action":"block","reason":"no rm"}`)}}})
	closed := guard("closed-guard", "closed", fakeSpec{})
	fakePlugin(t, base, "watcher", map[string]any{"permissions": []string{"tools.intercept"},
		"hooks": []map[string]any{{"hook": contract.HookAfterToolCall}}}, fakeSpec{})
	h := startHost(t, base, withCache)
	h.Shutdown()

	h = startHost(t, base, withCache)
	for _, id := range []string{"rm-guard", "closed-guard", "watcher"} {
		if st := stateOf(t, h, id); !st.Deferred || st.Running {
			t.Errorf("%s at a cached start: %+v, want deferred", id, st)
		}
	}
	d := h.BeforeToolCall(t.Context(), bashSpec(), json.RawMessage(`{"command":"rm -rf /tmp/x"}`), "s", nil)
	if !d.Blocked || !strings.Contains(d.Reason, "no rm") {
		t.Errorf("first judged call = %+v, want blocked by rm-guard", d)
	}
	for _, id := range []string{"rm-guard", "closed-guard"} {
		if st := stateOf(t, h, id); st.Deferred || !st.Running {
			t.Errorf("%s after the first call it judges: %+v, want running", id, st)
		}
	}
	// The watcher of after_tool_call was started with them, not at its
	// own first event.
	waitRunning(t, h, "watcher")
	h.Shutdown()

	h = startHost(t, base, withCache)
	if err := os.Rename(filepath.Join(closed, "fake.json"), filepath.Join(closed, "fake.json.off")); err != nil {
		t.Fatal(err)
	}
	d = h.BeforeToolCall(t.Context(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	if !d.Blocked {
		t.Errorf("a call judged by a fail-closed guard that cannot start = %+v, want blocked", d)
	}
	if st := statusOf(t, h, "closed-guard"); st.State != StateFailed {
		t.Errorf("closed-guard = %s, want failed", st.State)
	}
}

// waitRunning waits until id's process runs (its start was begun
// without waiting); no deadline but the test's.
func waitRunning(t *testing.T, h *Host, id string) {
	t.Helper()
	h.mu.Lock()
	exts := h.exts
	h.mu.Unlock()
	for _, e := range exts {
		if e.ID() == id {
			e.mu.Lock()
			wait := e.restarting
			e.mu.Unlock()
			if wait != nil {
				<-wait
			}
		}
	}
	if st := stateOf(t, h, id); !st.Running {
		t.Errorf("%s: %+v, want running", id, st)
	}
}

// TestInitCacheSessionHookStartsBeside: an extension that hooks the
// session's events is spawned at every start, but with a cached answer
// the start does not wait for it: its tools are registered from the cache
// and each of its hooks waits for its process, the wait not counted
// against the hook's deadline (a guard slow to start is waited for, as a
// start waits for it, not faulted as too slow to answer).
func TestInitCacheSessionHookStartsBeside(t *testing.T) {
	base := t.TempDir()
	gate := filepath.Join(t.TempDir(), "go") // outside the plugin: its key stays
	fakePlugin(t, base, "greeter", map[string]any{
		"permissions": []string{"tools.register", "tools.intercept", "session.lifecycle"},
		"hooks":       []map[string]any{{"hook": contract.HookOnSessionStart}, {"hook": contract.HookBeforeToolCall, "tool": "bash"}},
	}, fakeSpec{InitMode: "gate", Gate: gate, Init: json.RawMessage(helloInit),
		Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"greeter says no"}`)}})
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	withShortHooks := func(o *Options) { o.InitCache = true; o.HookTimeout = time.Second }
	h := startHost(t, base, withShortHooks)
	h.Shutdown()
	if err := os.Remove(gate); err != nil {
		t.Fatal(err)
	}

	// The start returns with the gate shut: it did not wait for initialize.
	h = startHost(t, base, withShortHooks)
	st := statusOf(t, h, "greeter")
	if st.State != StateLoaded || st.PID != 0 || !slices.Equal(st.Tools, []string{"greeter_hello"}) {
		t.Fatalf("cached start: state %s, pid %d, tools %v; want loaded from the cache, its process starting", st.State, st.PID, st.Tools)
	}
	got := make(chan hook.Decision, 1)
	go func() {
		got <- h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	}()
	// Longer than the hook's deadline: a wait counted against it would
	// have faulted (and, fail-open, let the call go) by now.
	select {
	case d := <-got:
		t.Fatalf("the call did not wait for its guard's start: %+v", d)
	case <-time.After(1500 * time.Millisecond):
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if d := <-got; !d.Blocked || !strings.Contains(d.Reason, "greeter says no") {
		t.Fatalf("decision = %+v, want the guard's block", d)
	}
	if st := stateOf(t, h, "greeter"); !st.Running {
		t.Errorf("after its hook: %+v, want running", st)
	}
}

// TestSameAnswer: the cache keeps an answer as json.Marshal puts it, so an
// answer with spaces, or with <, > or & unescaped, is the same answer.
func TestSameAnswer(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1}`, `{"a":1}`, true},
		{`{"a":1,"b":[1,2]}`, `{"a": 1, "b": [1, 2]}`, true},
		{`{"d":"a\u003cb \u0026 c"}`, `{"d": "a<b & c"}`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false}, // another answer's order: said as changed
		{`{"a":1}`, `not json`, false},
	} {
		if got := sameAnswer(json.RawMessage(tt.a), json.RawMessage(tt.b)); got != tt.want {
			t.Errorf("sameAnswer(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestInitCachePythonAnswerIsKept: the guide's hello-ext (Python, whose
// json.dumps puts spaces in its answer), hooking on_session_start so that
// a cached start still spawns it: the second session takes its answer
// from the cache and finds it unchanged, so the entry is not rewritten
// and the extension's tools are not redeclared.
func TestInitCachePythonAnswerIsKept(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "plugins", "hello-ext")
	os.MkdirAll(filepath.Dir(dir), 0o755)
	copyDir(t, "../../examples/extensions/hello-ext", dir)
	for file, edit := range map[string][2]string{
		".synaps-plugin/plugin.json": {`"hooks.before_tool_call"`, `"hooks.on_session_start"`},
		"main.py":                    {`"hooks": [{"name": "before_tool_call"}]`, `"hooks": [{"name": "on_session_start"}]`},
	} {
		path := filepath.Join(dir, file)
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), edit[0]) {
			t.Fatalf("%s: %v, or it no longer holds %s", file, err, edit[0])
		}
		os.WriteFile(path, []byte(strings.Replace(string(data), edit[0], edit[1], 1)), 0o644)
	}
	h := startHost(t, base, withCache)
	h.Shutdown()
	entry := filepath.Join(InitCacheDir(base), "hello-ext.json")
	before, err := os.Stat(entry)
	if err != nil {
		t.Fatal(err)
	}
	h = startHost(t, base, withCache)
	h.RunHook(context.Background(), hook.Event{Kind: contract.HookOnSessionStart, SessionID: "s"}) // waits for the process
	h.Shutdown()
	logs, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", "hello-ext.log"))
	if !strings.Contains(string(logs), "started from its cached answer") {
		t.Fatalf("the second start did not come from the cache:\n%s", logs)
	}
	if strings.Contains(string(logs), "differs from the cached one") {
		t.Errorf("the same answer with spaces was taken for a changed one:\n%s", logs)
	}
	after, err := os.Stat(entry)
	if err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the cache entry was written again (%v → %v, %v)", before.ModTime(), after.ModTime(), err)
	}
}

// TestToolChange: what the user is told when an extension's fresh answer
// changed its tools.
func TestToolChange(t *testing.T) {
	for _, tt := range []struct {
		before, after []string
		want          string
	}{
		{[]string{"x_a", "x_b"}, []string{"x_a", "x_c"}, "x_a, x_c (added x_c; removed x_b)"},
		{[]string{"x_a"}, []string{"x_a"}, "x_a (the same tools; their descriptions, schemas or hooks changed)"},
		{[]string{"x_a"}, nil, "no tools (removed x_a)"},
		{nil, []string{"x_a"}, "x_a (added x_a)"},
	} {
		if got := toolChange(tt.before, tt.after); got != tt.want {
			t.Errorf("toolChange(%v, %v) = %q, want %q", tt.before, tt.after, got, tt.want)
		}
	}
}
