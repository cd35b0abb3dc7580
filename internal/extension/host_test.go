package extension

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/tool"
)

// statusOf returns the status of one plugin.
func statusOf(t *testing.T, h *Host, id string) Status {
	t.Helper()
	for _, s := range h.Statuses() {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no status for %s in %+v", id, h.Statuses())
	return Status{}
}

func callTool(t *testing.T, h *Host, name string, input string) tool.Result {
	t.Helper()
	tl, _, ok := h.Registry().Lookup(name)
	if !ok {
		t.Fatalf("tool %s not registered; have %v", name, h.Registry().Names())
	}
	res, err := tl.Run(context.Background(), json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func bashSpec() tool.Spec { return tool.Spec{Name: "bash", RuntimeName: "bash", Source: "builtin"} }

func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
}

// The guide's steps 1–6, as written, in Python: loads, registers hello,
// receives before_tool_call, answers hello and exits cleanly on shutdown.
func TestGuideHelloExtInPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	base := t.TempDir()
	os.MkdirAll(filepath.Join(base, "plugins"), 0o755)
	copyDir(t, "../../examples/extensions/hello-ext", filepath.Join(base, "plugins", "hello-ext"))
	h := NewHost(Options{BaseDir: base, Version: "test"})
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := statusOf(t, h, "hello-ext")
	want := Status{ID: "hello-ext", Name: "hello-ext", Version: "0.1.0", Description: "Hello-world extension",
		Scope: plugin.ScopeUser, State: StateLoaded, Tools: []string{"hello-ext_hello"}, Hooks: []string{"before_tool_call"}, Parts: []plugin.Part{plugin.PartExtension}, Format: plugin.FormatSynaps}
	if d := cmp.Diff(want, st, ignoreVolatile); d != "" {
		t.Errorf("status (-want +got):\n%s", d)
	}
	if res := callTool(t, h, "hello-ext_hello", `{"name":"Ada"}`); res.Output != "Hello, Ada!" || res.IsError {
		t.Errorf("hello = %+v", res)
	}
	d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s1", nil)
	if d.Blocked {
		t.Errorf("hello-ext's {} should allow: %+v", d)
	}
	h.Shutdown()
	logs, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", "hello-ext.log"))
	for _, wantLine := range []string{"hello-ext saw before_tool_call for bash", "stopped (exited with status 0)"} {
		if !strings.Contains(string(logs), wantLine) {
			t.Errorf("log lacks %q:\n%s", wantLine, logs)
		}
	}
	assertNoChildren(t)
}

var ignoreVolatile = cmpIgnoreFields("Dir", "PID", "Warnings")

func cmpIgnoreFields(names ...string) cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		for _, n := range names {
			if p.Last().String() == "."+n {
				return true
			}
		}
		return false
	}, cmp.Ignore())
}

// A SynapsCLI-dialect extension: command/args, manifest hooks with tool and
// match, {"action":"continue"} answers.
func TestSynapsCLIDialect(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "rm-guard", map[string]any{
		"runtime":     "process",
		"permissions": []string{"tools.intercept"},
		"hooks": []map[string]any{
			{"hook": "before_tool_call", "tool": "bash", "match": map[string]any{"input_contains": "rm -rf"}},
		},
	}, fakeSpec{Record: true, Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"continue"}`)}})
	h := startHost(t, base, nil)
	if st := statusOf(t, h, "rm-guard"); st.State != StateLoaded || !cmp.Equal(st.Hooks, []string{"before_tool_call"}) {
		t.Fatalf("status = %+v", st)
	}
	for _, in := range []string{`{"command":"ls"}`, `{"command":"rm -rf /tmp/x"}`} {
		if d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(in), "s", nil); d.Blocked {
			t.Errorf("continue blocked %s", in)
		}
	}
	h.BeforeToolCall(context.Background(), tool.Spec{Name: "write", RuntimeName: "write"}, json.RawMessage(`{"x":"rm -rf"}`), "s", nil)
	rec := readRecord(t, dir)
	if len(rec) != 1 {
		t.Fatalf("the matcher should let exactly one event through, got %d: %v", len(rec), rec)
	}
	got := rec[0]
	for _, k := range []string{"kind", "hook", "tool_name", "tool_runtime_name", "tool_input", "tool_output", "message", "session_id", "transcript", "data", "context"} {
		if _, ok := got[k]; !ok {
			t.Errorf("event lacks key %q: %v", k, got)
		}
	}
	if got["kind"] != "before_tool_call" || got["hook"] != "before_tool_call" || got["tool_output"] != nil {
		t.Errorf("event = %v", got)
	}
	ctx := got["context"].(map[string]any)
	if ctx["tool_name"] != "bash" || ctx["session_id"] != "s" || ctx["tool_output"] != nil {
		t.Errorf("context = %v", ctx)
	}
}

func TestEnvironmentIsScrubbedAndConfigResolved(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "envy", map[string]any{
		"permissions": []string{"tools.register"},
		"env":         []string{"PASSED_THROUGH"},
		"config": []map[string]any{
			{"key": "from_env"}, {"key": "from_secret", "secret_env": "MY_SECRET"},
			{"key": "from_file"}, {"key": "from_global", "type": "integer"},
			{"key": "from_default", "default": true}, {"key": "unset"},
		},
	}, fakeSpec{Record: true, Modes: map[string]string{"tool:env": "env"},
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"env","description":"print env","input_schema":{"type":"object"}}]}}`)})
	os.WriteFile(filepath.Join(dir, "config"), []byte("from_file = file value\nfrom_env = loses\n"), 0o644)
	global, _ := config.Parse("cfg", []byte("extension.envy.from_global = 42\nextension.envy.from_file = loses\n"))
	env := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": "/home/test", "ANTHROPIC_API_KEY": "sk-secret", "OPENAI_API_KEY": "sk-2",
		"PASSED_THROUGH": "yes", "NOT_PASSED": "no", "MY_SECRET": "s3cret", "SYNAPS_EXTENSION_ENVY_FROM_ENV": "env value",
	}
	h := startHost(t, base, func(o *Options) {
		o.Config = global
		o.Getenv = func(k string) string { return env[k] }
	})
	out := callTool(t, h, "envy_env", `{}`).Output
	got := map[string]string{}
	for _, kv := range strings.Split(out, "\n") {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	want := map[string]string{"PATH": os.Getenv("PATH"), "HOME": "/home/test", "PASSED_THROUGH": "yes",
		"SYNAPS_PLUGIN_ID": "envy", "SYNAPS_PLUGIN_ROOT": dir, "SYNAPS_BASE_DIR": base}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("child environment (-want +got):\n%s", d)
	}
	var init struct {
		Config                   map[string]any
		PluginID                 string `json:"plugin_id"`
		PluginRoot               string `json:"plugin_root"`
		ExtensionProtocolVersion int    `json:"extension_protocol_version"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "init.json"))
	if err := json.Unmarshal(b, &init); err != nil {
		t.Fatal(err)
	}
	wantCfg := map[string]any{"from_env": "env value", "from_secret": "s3cret", "from_file": "file value", "from_global": float64(42), "from_default": true}
	if d := cmp.Diff(wantCfg, init.Config); d != "" {
		t.Errorf("initialize config (-want +got):\n%s", d)
	}
	if init.PluginID != "envy" || init.PluginRoot != dir || init.ExtensionProtocolVersion != 1 {
		t.Errorf("initialize params = %+v", init)
	}
}

func TestRequiredConfigMissingFailsWithWhereToSetIt(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "needy", map[string]any{"config": []map[string]any{{"key": "api_token", "required": true}}}, fakeSpec{})
	h := startHost(t, base, func(o *Options) { o.Getenv = func(string) string { return "" } })
	st := statusOf(t, h, "needy")
	if st.State != StateFailed || !strings.Contains(st.Error, "SYNAPS_EXTENSION_NEEDY_API_TOKEN") || !strings.Contains(st.Error, "extension.needy.api_token") {
		t.Fatalf("status = %+v", st)
	}
}

func TestCapabilitiesWithoutPermissionAreRefusedRestLoads(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "greedy", map[string]any{"permissions": []string{"hooks.before_message"}}, fakeSpec{
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{
			"tools":[{"name":"t","description":"d","input_schema":{"type":"object"}}],
			"hooks":[{"name":"before_tool_call"},{"name":"before_message"}]}}`),
	})
	h := startHost(t, base, nil)
	st := statusOf(t, h, "greedy")
	if st.State != StateLoaded || len(st.Tools) != 0 || !cmp.Equal(st.Hooks, []string{"before_message"}) {
		t.Fatalf("status = %+v", st)
	}
	joined := strings.Join(st.Warnings, "\n")
	for _, want := range []string{`"tools.register"`, "refused hook: ", `"hooks.before_tool_call" or "tools.intercept"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
}

func TestToolValidation(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "tools", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[
			{"name":"ok","description":"fine","input_schema":{"type":"object"}},
			{"name":"a:b","description":"colon","input_schema":{"type":"object"}},
			{"name":"nodesc","input_schema":{"type":"object"}},
			{"name":"noschema","description":"x"},
			{"name":"ok","description":"dup","input_schema":{"type":"object"}},
			{"name":"camel","description":"SynapsCLI spelling","inputSchema":{"type":"object"}}]}}`),
	})
	h := startHost(t, base, nil)
	st := statusOf(t, h, "tools")
	if d := cmp.Diff([]string{"tools_ok", "tools_camel"}, st.Tools); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	joined := strings.Join(st.Warnings, "\n")
	for _, want := range []string{`"a:b" contains ':'`, `"nodesc" has no description`, `"noschema": input_schema`, `"ok" is declared twice`} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
}

func TestToolResultShapes(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want tool.Result
	}{
		{`"plain"`, tool.Result{Output: "plain"}},
		{`{"output":"guide"}`, tool.Result{Output: "guide"}},
		{`{"content":"synaps"}`, tool.Result{Output: "synaps"}},
		{`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, tool.Result{Output: "a\nb"}},
		{`{"content":"bad","is_error":true}`, tool.Result{Output: "bad", IsError: true}},
		{`{"answer":42}`, tool.Result{Output: `{"answer":42}`}},
		{`[1,2]`, tool.Result{Output: `[1,2]`}},
		{`null`, tool.Result{}},
		{`{"is_error":true,"error":"boom"}`, tool.Result{Output: "boom", IsError: true}},
	} {
		if got := NormalizeToolResult(json.RawMessage(tc.raw)); got != tc.want {
			t.Errorf("NormalizeToolResult(%s) = %+v, want %+v", tc.raw, got, tc.want)
		}
	}
}

func TestStatusesOfPluginsThatDoNotRun(t *testing.T) {
	base := t.TempDir()
	project := t.TempDir()
	fakePlugin(t, base, "off", nil, fakeSpec{Record: true})
	os.MkdirAll(filepath.Join(base, "plugins", "broken", plugin.ManifestDir), 0o755)
	os.WriteFile(filepath.Join(base, "plugins", "broken", plugin.ManifestDir, plugin.ManifestFile), []byte(`{"name":"broken","extension":{"command":"x","entry_point":"y"}}`), 0o644)
	os.MkdirAll(filepath.Join(base, "plugins", "no-manifest"), 0o755)
	os.MkdirAll(filepath.Join(project, ".synaps", "plugins", "proj", plugin.ManifestDir), 0o755)
	os.WriteFile(filepath.Join(project, ".synaps", "plugins", "proj", plugin.ManifestDir, plugin.ManifestFile), []byte(`{"name":"proj","extension":{"command":"false"}}`), 0o644)
	global, _ := config.Parse("cfg", []byte("disabled_plugins = off, other\n"))
	h := startHost(t, base, func(o *Options) { o.Config = global; o.ProjectDir = project })
	got := map[string]State{}
	for _, s := range h.Statuses() {
		got[s.ID] = s.State
		if s.State == StateFailed && !strings.Contains(s.Error, "plugin.json") {
			t.Errorf("%s: error does not name the manifest file: %s", s.ID, s.Error)
		}
	}
	want := map[string]State{"off": StateDisabled, "broken": StateFailed, "no-manifest": StateFailed, "proj": StateUntrusted}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("states (-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(base, "plugins", "off", "init.json")); err == nil {
		t.Errorf("disabled plugin was spawned")
	}
}

func TestTrustedProjectPluginShadowsUserPlugin(t *testing.T) {
	base := t.TempDir()
	project := t.TempDir()
	fakePlugin(t, base, "same", nil, fakeSpec{})
	pdir := fakePlugin(t, filepath.Join(project, ".synaps"), "same", map[string]any{"permissions": []string{"tools.register"}},
		fakeSpec{Init: json.RawMessage(`{"capabilities":{"tools":[{"name":"p","description":"project tool","input_schema":{"type":"object"}}]}}`)})
	os.WriteFile(filepath.Join(base, plugin.TrustedProjectsFile), []byte(project+"\n"), 0o644)
	h := startHost(t, base, func(o *Options) { o.ProjectDir = project })
	st := statusOf(t, h, "same")
	if st.Scope != plugin.ScopeProject || st.Dir != pdir || st.State != StateLoaded || !cmp.Equal(st.Tools, []string{"same_p"}) {
		t.Fatalf("status = %+v", st)
	}
	if !strings.Contains(strings.Join(st.Warnings, "\n"), "no protocol_version") {
		t.Errorf("missing protocol_version should warn: %v", st.Warnings)
	}
}

func TestSymlinkedPluginLoads(t *testing.T) {
	base := t.TempDir()
	src := t.TempDir()
	real := fakePlugin(t, src, "linked", map[string]any{"permissions": []string{"tools.register"}},
		fakeSpec{Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"x","description":"d","input_schema":{"type":"object"}}]}}`)})
	os.MkdirAll(filepath.Join(base, "plugins"), 0o755)
	if err := os.Symlink(real, filepath.Join(base, "plugins", "linked")); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, base, nil)
	if st := statusOf(t, h, "linked"); st.State != StateLoaded || len(st.Tools) != 1 {
		t.Fatalf("status = %+v", st)
	}
}

func TestReloadPicksUpAddedRemovedAndEdited(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "a", nil, fakeSpec{})
	h := startHost(t, base, nil)
	fakePlugin(t, base, "b", nil, fakeSpec{})
	os.RemoveAll(filepath.Join(base, "plugins", "a"))
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range h.Statuses() {
		ids = append(ids, s.ID+"="+string(s.State))
	}
	if d := cmp.Diff([]string{"b=loaded"}, ids); d != "" {
		t.Errorf("after reload (-want +got):\n%s", d)
	}
}

func TestTraceRecords(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "g", map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}}},
		fakeSpec{Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"secret payload"}`)}})
	var buf bytes.Buffer
	h := startHost(t, base, func(o *Options) { o.Trace = &buf })
	h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls /payload-dir"}`), "s", nil)
	var rec traceRecord
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("trace %q: %v", buf.String(), err)
	}
	if rec.Hook != "before_tool_call" || rec.Extension != "g" || rec.Action != "block" || rec.Health != StateLoaded {
		t.Errorf("trace record = %+v", rec)
	}
	if strings.Contains(buf.String(), "secret payload") || strings.Contains(buf.String(), "payload-dir") {
		t.Errorf("trace holds payloads: %s", buf.String())
	}
}

func TestParallelStart(t *testing.T) {
	// Each extension takes a second to initialise. Started one after
	// another, the last would begin after the first ended; started in
	// parallel, every initialise begins before the first one ends.
	base := t.TempDir()
	ids := []string{"p1", "p2", "p3", "p4", "p5"}
	for _, id := range ids {
		fakePlugin(t, base, id, nil, fakeSpec{InitMode: "slow"})
	}
	h := startHost(t, base, nil)
	var starts, ends []int64
	for _, id := range ids {
		if st := statusOf(t, h, id); st.State != StateLoaded {
			t.Fatalf("%s: %+v", id, st)
		}
		starts = append(starts, readStamp(t, filepath.Join(base, "plugins", id), "init-start"))
		ends = append(ends, readStamp(t, filepath.Join(base, "plugins", id), "init-end"))
	}
	if slices.Max(starts) >= slices.Min(ends) {
		t.Errorf("extensions were initialised one after another: last start %d, first end %d", slices.Max(starts), slices.Min(ends))
	}
}

func TestExtensionProvider(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "prov", map[string]any{"permissions": []string{"providers.register"}}, fakeSpec{
		Record: true,
		Init:   json.RawMessage(`{"protocol_version":1,"capabilities":{"providers":[{"id":"echo","models":["m1",{"id":"m2"}]}]}}`),
		Results: map[string]json.RawMessage{"provider.complete": json.RawMessage(`{"content":[
			{"type":"text","text":"calling a tool"},
			{"type":"tool_use","name":"bash","input":{"command":"ls"}}],"usage":{"input_tokens":7,"output_tokens":3}}`)},
	})
	h := startHost(t, base, nil)
	if d := cmp.Diff([]ProviderModel{{"prov:echo:m1", "prov"}, {"prov:echo:m2", "prov"}}, h.Models()); d != "" {
		t.Errorf("Models (-want +got):\n%s", d)
	}
	for model, want := range map[string]string{
		"prov:echo:m3":  "offers m1, m2",
		"prov:nope:m1":  `no provider "nope"`,
		"other:echo:m1": `no running extension "other"`,
		"prov:echo":     "<plugin>:<provider>:<model>",
	} {
		if _, err := h.Provider(model); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Provider(%q) error = %v, want %q", model, err, want)
		}
	}
	p, err := h.Provider("prov:echo:m2")
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	resp, err := p.Complete(context.Background(), &llm.Request{System: "be brief", Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}}}, MaxTokens: 100},
		func(ev llm.Event) { events = append(events, string(ev.Type)) })
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != "tool_use" || len(resp.Message.Content) != 2 || resp.Message.Content[1].ID == "" || resp.Usage.InputTokens != 7 {
		t.Errorf("response = %+v", resp)
	}
	if d := cmp.Diff([]string{"text", "tool_use"}, events); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if st := statusOf(t, h, "prov"); len(st.Warnings) != 0 {
		t.Errorf("warnings = %v", st.Warnings)
	}
	rec := readRecord(t, dir)
	if len(rec) != 1 || rec[0]["system_prompt"] != "be brief" || rec[0]["model_id"] != "m2" || rec[0]["provider_id"] != "echo" || rec[0]["max_tokens"] != float64(100) {
		t.Errorf("provider.complete params = %v", rec)
	}
}

// An untrusted project cannot switch off a user's plugin by shipping one of
// the same id: the user's runs, the project's is listed as untrusted.
func TestUntrustedProjectPluginDoesNotShadowUserPlugin(t *testing.T) {
	base := t.TempDir()
	project := t.TempDir()
	fakePlugin(t, base, "guard", map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}}},
		fakeSpec{Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"user guard"}`)}})
	fakePlugin(t, filepath.Join(project, ".synaps"), "guard", nil, fakeSpec{})
	h := startHost(t, base, func(o *Options) { o.ProjectDir = project })
	var got []string
	for _, s := range h.Statuses() {
		got = append(got, string(s.Scope)+":"+s.ID+"="+string(s.State))
	}
	if d := cmp.Diff([]string{"user:guard=loaded", "project:guard=untrusted"}, got); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	if d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{}`), "s", nil); !d.Blocked {
		t.Error("the user's guard no longer runs")
	}
}

// SYNAPS_EXTENSIONS_TRACE=1 writes one record per hook call to
// extensions/trace.jsonl, and holds no file open between records.
func TestTraceFromEnvironment(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "g", map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}}}, fakeSpec{})
	h := startHost(t, base, func(o *Options) {
		o.Getenv = func(k string) string {
			if k == TraceEnv {
				return "yes"
			}
			return os.Getenv(k)
		}
	})
	for i := 0; i < 2; i++ {
		h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{}`), "s", nil)
	}
	path := filepath.Join(base, "extensions", "trace.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `"hook":"before_tool_call","extension":"g","action":"continue"`) {
		t.Fatalf("trace.jsonl = %s", b)
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		if target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); target == path {
			t.Fatalf("trace.jsonl is held open (fd %s)", fd.Name())
		}
	}
}

// Reload is all or nothing: when the plugins cannot be discovered again
// (here the trusted project's .synaps/plugins was turned into a file), the
// running set — a fail-closed guard — keeps running and guarding, the
// error says why, and the list shows what really runs.
func TestFailedReloadKeepsTheRunningSet(t *testing.T) {
	base, proj := t.TempDir(), t.TempDir()
	fakePlugin(t, filepath.Join(proj, ".synaps"), "guard", map[string]any{
		"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}}, "failure_policy": "closed",
	}, fakeSpec{Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"no rm"}`)}})
	h := startHost(t, base, func(o *Options) { o.ProjectDir, o.TrustProject = proj, true })
	rm := json.RawMessage(`{"command":"rm -rf build"}`)
	if d := h.BeforeToolCall(context.Background(), bashSpec(), rm, "s", nil); !d.Blocked {
		t.Fatalf("not blocked before the reload: %+v", d)
	}
	plugins := filepath.Join(proj, ".synaps", "plugins")
	if err := os.RemoveAll(plugins); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugins, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := h.Reload(context.Background())
	if err == nil || !strings.Contains(err.Error(), "reload failed, so the 1 extension already running keeps running: cannot read the plugins directory "+plugins+" (it is a file, not a directory)") {
		t.Errorf("reload error = %v", err)
	}
	if d := h.BeforeToolCall(context.Background(), bashSpec(), rm, "s", nil); !d.Blocked || d.BlockedBy != "guard" {
		t.Errorf("after the failed reload the rm was not blocked by the guard: %+v", d)
	}
	if st := statusOf(t, h, "guard"); st.State != StateLoaded || st.PID == 0 || !processAlive(st.PID) {
		t.Errorf("list after the failed reload: %+v", st)
	}
}

func processAlive(pid int) bool { return !processReaped(pid) }

// TestStartReportsProgress: a UI hears which extensions are starting,
// then the shrinking rest, ending with none; disabled plugins are not
// started, so never listed.
func TestStartReportsProgress(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "alpha", nil, fakeSpec{})
	fakePlugin(t, base, "beta", nil, fakeSpec{})
	fakePlugin(t, base, "off", nil, fakeSpec{})
	global, _ := config.Parse("cfg", []byte("disabled_plugins = off\n"))
	var calls [][]string
	startHost(t, base, func(o *Options) {
		o.Config = global
		o.Progress = func(starting []string) { calls = append(calls, starting) }
	})
	if len(calls) != 3 {
		t.Fatalf("progress calls %q, want 3: both, one, none", calls)
	}
	if d := cmp.Diff([]string{"alpha", "beta"}, calls[0]); d != "" {
		t.Errorf("first call (-want +got):\n%s", d)
	}
	if len(calls[1]) != 1 || (calls[1][0] != "alpha" && calls[1][0] != "beta") || len(calls[2]) != 0 {
		t.Errorf("later calls %q, want one id then none", calls[1:])
	}
}
