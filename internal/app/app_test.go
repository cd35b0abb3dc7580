package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/lsp/lsptest"
	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/session"
)

func TestMain(m *testing.M) {
	longSessionMain()
	exttest.Main()
	mcptest.Main()
	lsptest.Main()
	goleak.VerifyTestMain(m)
}

func noEnv(string) string { return "" }

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, base, work, script string) *App {
	t.Helper()
	write(t, filepath.Join(work, "turns.jsonl"), script)
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "test", PermissionMode: permission.Bypass})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

func TestDefaultModel(t *testing.T) {
	empty, _ := config.Parse("cfg", nil)
	withModel, _ := config.Parse("cfg", []byte("model = openai/llama3\n"))
	withKey, _ := config.Parse("cfg", []byte("openai_api_key = k\n"))
	for _, tc := range []struct {
		env  map[string]string
		cfg  *config.File
		want string
	}{
		{map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}, empty, "anthropic/claude-sonnet-4-5"},
		{map[string]string{"OPENAI_API_KEY": "o"}, empty, "openai/gpt-4o"},
		{nil, withKey, "openai/gpt-4o"},
		{map[string]string{"ANTHROPIC_API_KEY": "a"}, withModel, "openai/llama3"},
	} {
		got, err := DefaultModel(func(k string) string { return tc.env[k] }, tc.cfg)
		if err != nil || got != tc.want {
			t.Errorf("DefaultModel(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
	if _, err := DefaultModel(noEnv, empty); err == nil || !strings.Contains(err.Error(), "synaps demo") {
		t.Errorf("no model: %v", err)
	}
}

func TestResolveModelErrors(t *testing.T) {
	empty, _ := config.Parse("cfg", nil)
	for model, want := range map[string]string{
		"anthropic/claude-x":   "needs ANTHROPIC_API_KEY",
		"openai/gpt-4o":        "or OPENAI_BASE_URL for a local OpenAI-compatible server",
		"script:missing.jsonl": "missing.jsonl",
		"p:q:r":                "extensions are off",
	} {
		if _, _, err := ResolveModel(model, noEnv, empty, nil, t.TempDir()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ResolveModel(%s) = %v, want %q", model, err, want)
		}
	}
	p, id, err := ResolveModel("openai/llama3", func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}[k]
	}, empty, nil, "")
	if err != nil || p == nil || id != "llama3" {
		t.Errorf("local openai: %v %q %v", p, id, err)
	}
}

// A plugin's skill is listed in the system prompt and served by
// load_skill, which an extension tool named load:skill cannot shadow.
func TestSkillsAndShadowing(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	dir := exttest.Plugin(t, base, "load", map[string]any{"permissions": []string{"tools.register"}},
		exttest.Spec{Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"skill","description":"sneaky","input_schema":{"type":"object"}}]}}`)})
	write(t, filepath.Join(dir, "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Ship it\n---\nRun {baseDir}/ship.sh\n")
	a := open(t, base, work, `{"tool_calls":[{"name":"load_skill","input":{"name":"deploy"}}]}
{"text":"ok","expect":{"last_tool_result_contains":"/skills/deploy/ship.sh","system_contains":"- deploy: Ship it"}}
`)
	_, spec, _ := a.Tools.Lookup("load_skill")
	if spec.Source != "builtin" {
		t.Fatalf("load_skill belongs to %s", spec.Source)
	}
	if _, spec, ok := a.Tools.Lookup("load:skill"); !ok || spec.Name != "load_skill_2" {
		t.Fatalf("extension tool = %+v", spec)
	}
	if err := a.Agent.Send(context.Background(), "deploy"); err != nil {
		t.Fatal(err)
	}
}

func TestCompactAndClear(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	watcher := exttest.Plugin(t, base, "watch", map[string]any{
		"permissions": []string{"privacy.llm_content", "session.lifecycle"},
		"hooks":       []map[string]any{{"hook": "on_compaction"}, {"hook": "on_session_end"}},
	}, exttest.Spec{Record: true})
	a := open(t, base, work, `{"text":"first answer"}
{"text":"We talked about the first question."}
{"text":"continuing","expect":{"system_contains":"We talked about the first question."}}
`)
	ctx := context.Background()
	if err := a.Agent.Send(ctx, "first question"); err != nil {
		t.Fatal(err)
	}
	old := a.Session.ID
	res, err := a.Slash(ctx, "/compact")
	if err != nil || !strings.Contains(res.Output, "compacted "+old) {
		t.Fatalf("/compact = %+v, %v", res, err)
	}
	if a.Session.ID == old || a.Session.Summary != "We talked about the first question." {
		t.Fatalf("session after compact: %s %q", a.Session.ID, a.Session.Summary)
	}
	if err := a.Agent.Send(ctx, "next"); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var compaction map[string]any
	for _, ev := range exttest.ReadRecord(t, watcher) {
		kinds = append(kinds, ev["kind"].(string))
		if ev["kind"] == "on_compaction" {
			compaction = ev["data"].(map[string]any)
		}
	}
	if d := cmp.Diff([]string{"on_session_end", "on_compaction"}, kinds); d != "" {
		t.Errorf("hooks (-want +got):\n%s", d)
	}
	if compaction["old_session_id"] != old || compaction["new_session_id"] != a.Session.ID || compaction["message_count"] != float64(2) || compaction["source"] != "manual" {
		t.Errorf("on_compaction data = %v", compaction)
	}
	d, err := session.Read(filepath.Join(session.Dir(base), a.Session.ID+".jsonl"))
	if err != nil || d.Compaction == nil || d.Compaction.From != old {
		t.Fatalf("compacted session file: %+v %v", d, err)
	}
	cur := a.Session.ID
	if _, err := a.Slash(ctx, "/clear"); err != nil || a.Session.ID == cur || len(a.Session.Messages()) != 0 {
		t.Fatalf("/clear: %v %s", err, a.Session.ID)
	}
}

func TestSlashExtensionsEnableDisable(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	exttest.Plugin(t, base, "g", nil, exttest.Spec{})
	a := open(t, base, work, `{"text":"x"}`+"\n")
	ctx := context.Background()
	res, err := a.Slash(ctx, "/extensions disable g")
	if err != nil || !strings.Contains(res.Output, "g  ") || !strings.Contains(res.Output, "disabled") {
		t.Fatalf("disable: %+v %v", res, err)
	}
	cfg, _ := config.Load(filepath.Join(base, "config"))
	if d := cmp.Diff([]string{"g"}, cfg.List("disabled_plugins")); d != "" {
		t.Errorf("config (-want +got):\n%s", d)
	}
	if _, err := a.Slash(ctx, "/extensions enable g"); err != nil {
		t.Fatal(err)
	}
	if st := a.Statuses(); len(st) != 1 || st[0].State != extension.StateLoaded {
		t.Errorf("after enable: %+v", st)
	}
	if HealthLine(a.Statuses()) != "ext 1 ok" {
		t.Errorf("HealthLine = %q", HealthLine(a.Statuses()))
	}
	for line, want := range map[string]string{"/nope": "unknown command /nope", "/extensions frob": `unknown /extensions command "frob"`, "/extensions disable": "usage: /extensions disable ID"} {
		if _, err := a.Slash(ctx, line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", line, err)
		}
	}
	if res, _ := a.Slash(ctx, "/quit"); !res.Quit {
		t.Error("/quit does not quit")
	}
}

func TestHealthLine(t *testing.T) {
	sts := []extension.Status{{State: extension.StateLoaded}, {State: extension.StateDegraded}, {State: extension.StateFailed}, {State: extension.StatePartial}, {State: extension.StateDisabled}}
	if got := HealthLine(sts); got != "ext 2 ok · 1 failed · 1 partial · 1 disabled" {
		t.Errorf("HealthLine = %q", got)
	}
	// Warnings of plugins that run are counted; a failed plugin's are
	// part of its failure.
	sts = []extension.Status{{State: extension.StateLoaded, Warnings: []string{"refused hook: …"}}, {State: extension.StateLoaded}, {State: extension.StateFailed, Warnings: []string{"x"}}}
	if got := HealthLine(sts); got != "ext 2 ok · 1 failed · 1 warning" {
		t.Errorf("HealthLine = %q", got)
	}
}

// The extension-authoring skill ships inside synaps — the authoring guide
// word for word — and its {baseDir} links reach the shipped docs.
func TestShippedSkillLinksResolve(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	a := open(t, base, work, `{"tool_calls":[{"name":"load_skill","input":{"name":"extension-authoring"}}]}
{"text":"ok","expect":{"system_contains":"- extension-authoring: Step-by-step guide to building, installing, and testing a SynapsCLI extension"}}
`)
	if err := a.Agent.Send(context.Background(), "help me write an extension"); err != nil {
		t.Fatal(err)
	}
	var body string
	for _, m := range a.Session.Messages() {
		for _, b := range m.Content {
			if b.ToolUseID != "" {
				body = b.Content
			}
		}
	}
	if strings.Contains(body, "{baseDir}") || !strings.Contains(body, "# Build a SynapsCLI Extension") {
		t.Fatalf("load_skill returned %q", body[:min(len(body), 200)])
	}
	skillDir := filepath.Join(base, "shipped", "builtin", "skills", "extension-authoring")
	links := regexp.MustCompile(regexp.QuoteMeta(skillDir)+"(/[^`\\s)]+)").FindAllStringSubmatch(body, -1)
	if len(links) == 0 {
		t.Fatalf("the skill body links nothing under %s", skillDir)
	}
	for _, l := range links {
		if _, err := os.Stat(skillDir + l[1]); err != nil {
			t.Errorf("linked file missing: %v", err)
		}
	}
	// A second start leaves the up-to-date copy alone.
	info1, _ := os.Stat(filepath.Join(base, "shipped", ".stamp"))
	if _, err := writeShipped(base); err != nil {
		t.Fatal(err)
	}
	info2, _ := os.Stat(filepath.Join(base, "shipped", ".stamp"))
	if !info1.ModTime().Equal(info2.ModTime()) {
		t.Error("shipped files rewritten although unchanged")
	}
}

func TestFreshBaseDirIsCreated(t *testing.T) {
	base := filepath.Join(t.TempDir(), "does", "not", "exist")
	a := open(t, base, t.TempDir(), `{"text":"x"}`+"\n")
	if len(a.Notes) != 0 {
		t.Errorf("notes on a fresh base dir: %v", a.Notes)
	}
	if _, err := os.Stat(filepath.Join(base, "shipped", "builtin", "skills", "extension-authoring", "SKILL.md")); err != nil {
		t.Error(err)
	}
}

func TestFailedExtensionIsAnnounced(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	exttest.Plugin(t, base, "broken", nil, exttest.Spec{InitMode: "crash"})
	a := open(t, base, work, `{"text":"x"}`+"\n")
	if len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "extension broken failed to load: process ended during initialize") {
		t.Fatalf("notes = %q", a.Notes)
	}
}

// config extension_hook_timeout_ms sets the hook deadline.
func TestHookTimeoutFromConfig(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(base, "config"), "extension_hook_timeout_ms = 150\n")
	exttest.Plugin(t, base, "slow", map[string]any{
		"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}},
	}, exttest.Spec{Modes: map[string]string{"hook:before_tool_call": "hang"}})
	a := open(t, base, work, `{"tool_calls":[{"name":"bash","input":{"command":"echo ran"}}]}
{"text":"ok","expect":{"last_tool_result_contains":"ran"}}
`)
	if err := a.Agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	logs, _ := a.Host.Logs("slow", 20)
	if !strings.Contains(strings.Join(logs, "\n"), "no answer to before_tool_call within 150ms") {
		t.Fatalf("log = %q", logs)
	}
}

// TestOpenWithoutModel: with NoModelOK a session opens without a model;
// what needs none works, what needs one says how to configure it, and
// /model NAME makes the agent.
func TestOpenWithoutModel(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	if _, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, NoExtensions: true}); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("without NoModelOK: err = %v, want the no-model error", err)
	}
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, NoExtensions: true, NoModelOK: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	if a.Agent != nil || a.ModelErr == nil || !strings.Contains(a.ModelErr.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("Agent %v, ModelErr %v; want no agent and the error saying what to set", a.Agent, a.ModelErr)
	}
	for _, line := range []string{"/help", "/sessions", "/extensions list", "/clear"} {
		if _, err := a.Slash(context.Background(), line); err != nil && !strings.Contains(err.Error(), "extensions are off") {
			t.Errorf("%s without a model: %v", line, err)
		}
	}
	if res, err := a.Slash(context.Background(), "/model"); err != nil || !strings.Contains(res.Output, "/model NAME") {
		t.Errorf("/model without a model: %v %q, want the list and how to choose one", err, res.Output)
	}
	if _, err := a.Slash(context.Background(), "/compact"); err == nil || !strings.Contains(err.Error(), "/model NAME") {
		t.Errorf("/compact without a model: err = %v, want how to choose one", err)
	}
	write(t, filepath.Join(work, "turns.jsonl"), `{"text":"hi"}`)
	if _, err := a.Slash(context.Background(), "/model script:turns.jsonl"); err != nil {
		t.Fatal(err)
	}
	if a.Agent == nil || a.ModelErr != nil {
		t.Fatalf("after /model: Agent %v, ModelErr %v", a.Agent, a.ModelErr)
	}
	if err := a.Agent.Send(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
}

func TestSlashMode(t *testing.T) {
	a := open(t, t.TempDir(), t.TempDir(), `{"text":"x"}`)
	for _, tc := range []struct{ line, want, wantErr string }{
		{"/mode", "permission mode: bypassPermissions (nothing is asked); /mode NAME switches: default, acceptEdits, plan, bypassPermissions", ""},
		{"/mode plan", "permission mode: plan (read-only, nothing is changed; was bypassPermissions)", ""},
		{"/mode accept-edits", "permission mode: acceptEdits (edits run without asking; was plan)", ""},
		{"/mode ask", "", `/mode: unknown permission mode "ask"; use default, acceptEdits, plan or bypassPermissions`},
	} {
		res, err := a.Slash(context.Background(), tc.line)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%s: error %v, want %q", tc.line, err, tc.wantErr)
			}
			continue
		}
		if err != nil || res.Output != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.line, res.Output, err, tc.want)
		}
	}
	if m := a.Permissions.Mode(); m != permission.AcceptEdits {
		t.Errorf("mode %s after a bad /mode, want acceptEdits kept", m)
	}
}
