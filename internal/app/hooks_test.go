package app

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// hooksFixture is a directory with a hook of every kind: a guard
// extension (manifest hooks), one that subscribes at initialize, a
// Claude plugin, a disabled plugin, the project's settings files, the
// user's Claude settings (not imported) and a permission rule.
func hooksFixture(t *testing.T, config string) (base, work, home string) {
	base, work, home = t.TempDir(), t.TempDir(), t.TempDir()
	exttest.Plugin(t, base, "a-guard", map[string]any{
		"permissions": []string{"tools.intercept"}, "failure_policy": "closed",
		"hooks": []any{map[string]any{"hook": "before_tool_call", "tool": "bash", "match": map[string]any{"input_contains": "rm"}}},
	}, exttest.Spec{})
	exttest.Plugin(t, base, "z-late", map[string]any{"permissions": []string{"tools.intercept"}},
		exttest.Spec{Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"hooks":[{"hook":"after_tool_call","tool":"read"}]}}`)})
	exttest.Plugin(t, base, "off", map[string]any{"permissions": []string{"session.lifecycle"}, "hooks": []string{"on_session_start"}}, exttest.Spec{})
	write(t, filepath.Join(base, "plugins", "cc", ".claude-plugin", "plugin.json"), `{"name":"cc"}`)
	write(t, filepath.Join(base, "plugins", "cc", "hooks", "hooks.json"),
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"one"},{"type":"command","command":"two","timeout":2}]}],"PostToolUseFailure":[{"hooks":[{"type":"command","command":"three","if":"Bash(git:*)"}]}]}}`)
	write(t, filepath.Join(work, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"p"}]}]}}`)
	write(t, filepath.Join(work, ".claude", "settings.local.json"), `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"l"}]}]}}`)
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"u"}]}]}}`)
	write(t, filepath.Join(base, "config"), "disabled_plugins = off\npermissions.deny = Bash(curl:*)\n"+config)
	return base, work, home
}

// TestListHooks: every hook is listed once, in chain order, with its id,
// status and why; the JSON has the documented keys.
func TestListHooks(t *testing.T) {
	cfgPath := func(base string) string { return filepath.Join(base, "config") }
	type row struct{ ID, Status, Matcher string }
	for _, tc := range []struct {
		name   string
		config string
		trust  bool
		want   []row
	}{
		{"untrusted, user hooks off", "claude.import_user_hooks = false\n", false, []row{
			{"ext:a-guard/before_tool_call", "running", `bash input_contains "rm"`},
			{"plugin:cc/PreToolUse/0", "running", "Bash"},
			{"plugin:cc/PreToolUse/1", "running", "Bash"},
			{"claude:project/PreToolUse/0", "skipped", "Edit"},
			{"claude:local/PreToolUse/0", "skipped", "*"},
			{"ext:z-late/before_tool_call", "running", "*"},
			{"rule:Bash(curl:*)", "running", "Bash(curl:*)"},
			{"mode:default", "running", "*"},
			{"plugin:cc/PostToolUseFailure/0", "running", "* if Bash(git:*)"},
			{"ext:z-late/after_tool_call", "running", "*"},
			{"claude:user/Stop/0", "skipped", ""},
			{"ext:off/on_session_start", "skipped", ""},
			{"ext:z-late/on_permission_request", "running", "*"},
			{"ext:z-late/on_permission_denied", "running", "*"},
			{"ext:z-late/after_tool_batch", "running", ""},
		}},
		{"trusted, two off, user hooks imported", "disabled_hooks = plugin:cc/PreToolUse/1, ext:a-guard/before_tool_call\nclaude.import_user_hooks = true\n", true, []row{
			{"ext:a-guard/before_tool_call", "disabled", `bash input_contains "rm"`},
			{"plugin:cc/PreToolUse/0", "running", "Bash"},
			{"plugin:cc/PreToolUse/1", "disabled", "Bash"},
			{"claude:project/PreToolUse/0", "running", "Edit"},
			{"claude:local/PreToolUse/0", "running", "*"},
			{"ext:z-late/before_tool_call", "running", "*"},
			{"rule:Bash(curl:*)", "running", "Bash(curl:*)"},
			{"mode:default", "running", "*"},
			{"plugin:cc/PostToolUseFailure/0", "running", "* if Bash(git:*)"},
			{"ext:z-late/after_tool_call", "running", "*"},
			{"claude:user/Stop/0", "running", ""},
			{"ext:off/on_session_start", "skipped", ""},
			{"ext:z-late/on_permission_request", "running", "*"},
			{"ext:z-late/on_permission_denied", "running", "*"},
			{"ext:z-late/after_tool_batch", "running", ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, work, home := hooksFixture(t, tc.config)
			getenv := func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}
			list, err := ListHooks(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: getenv, TrustProject: tc.trust}, false)
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			for _, h := range list.Hooks {
				got = append(got, row{h.ID, h.Status, h.Matcher})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("rows (-want +got):\n%s", d)
			}
			// Positions count from 1 in each event.
			for i, h := range list.Hooks {
				if want := 1; i > 0 && list.Hooks[i-1].Event == h.Event {
					want = list.Hooks[i-1].Position + 1
					if h.Position != want {
						t.Errorf("%s: position %d, want %d", h.ID, h.Position, want)
					}
				} else if h.Position != want {
					t.Errorf("%s: position %d, want %d", h.ID, h.Position, want)
				}
			}
			byID := map[string]HookInfo{}
			for _, h := range list.Hooks {
				byID[h.ID] = h
			}
			g := byID["ext:a-guard/before_tool_call"]
			if !g.FailClosed || g.TimeoutMS != 5000 || g.Kind != "extension" || !strings.HasSuffix(g.File, filepath.Join("a-guard", ".synaps-plugin", "plugin.json")) {
				t.Errorf("a-guard: %+v", g)
			}
			if strings.Contains(tc.config, "disabled_hooks") && g.Why != "turned off in "+cfgPath(base)+" (disabled_hooks); `synaps hooks enable ext:a-guard/before_tool_call` turns it on" {
				t.Errorf("a-guard why: %q", g.Why)
			}
			two := byID["plugin:cc/PreToolUse/1"]
			if two.TimeoutMS != 2000 || two.Command != "two" || two.ClaudeEvent != "PreToolUse" || two.Source != "cc" || two.FailClosed {
				t.Errorf("cc two: %+v", two)
			}
			if late := byID["ext:z-late/after_tool_call"]; !strings.Contains(late.Why, "subscribes when it starts") {
				t.Errorf("z-late: %+v", late)
			}
			if off := byID["ext:off/on_session_start"]; !strings.Contains(off.Why, "plugin disabled") {
				t.Errorf("off: %+v", off)
			}
			if !tc.trust && !strings.Contains(byID["claude:project/PreToolUse/0"].Why, "not trusted") {
				t.Errorf("project: %+v", byID["claude:project/PreToolUse/0"])
			}
			// The JSON keys are the documented ones (docs/hooks-debugging.md).
			b, _ := json.Marshal(list)
			var shape struct {
				Dir      string           `json:"dir"`
				Started  bool             `json:"started"`
				Hooks    []map[string]any `json:"hooks"`
				Warnings []string         `json:"warnings"`
			}
			if err := json.Unmarshal(b, &shape); err != nil {
				t.Fatal(err)
			}
			keys := map[string]bool{}
			for _, h := range shape.Hooks {
				for k := range h {
					keys[k] = true
				}
			}
			want := []string{"claude_event", "command", "event", "fail_closed", "file", "id", "kind", "matcher", "position", "source", "status", "timeout_ms", "why"}
			if d := cmp.Diff(want, slices.Sorted(mapsKeys(keys))); d != "" {
				t.Errorf("JSON keys (-want +got):\n%s", d)
			}
			if shape.Dir != work || shape.Warnings == nil {
				t.Errorf("dir %q, warnings %v", shape.Dir, shape.Warnings)
			}
		})
	}
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestListedOrderIsChainOrder: the links the listing says run are, hook by
// hook, the links of the chain a session runs, in the same order — with
// --start as the extensions subscribed, and without, as their manifests
// say (the extension that subscribes at initialize holds every place its
// permissions allow, as it does while a session starts it).
func TestListedOrderIsChainOrder(t *testing.T) {
	base, work, home := hooksFixture(t, "disabled_hooks = plugin:cc/PreToolUse/0\n")
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	o := Options{BaseDir: base, WorkDir: work, Getenv: getenv, TrustProject: true, Model: "script:turns.jsonl"}
	write(t, filepath.Join(work, "turns.jsonl"), `{"text":"x"}`+"\n")
	ctx := context.Background()
	a, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(ctx)
	chain := map[string][]string{}
	for name, entries := range a.Host.Table() {
		for _, e := range entries {
			chain[name] = append(chain[name], e.Link.ID())
		}
	}
	for _, start := range []bool{true, false} {
		list, err := ListHooks(ctx, o, start)
		if err != nil {
			t.Fatal(err)
		}
		listed, last := map[string][]string{}, ""
		for _, h := range list.Hooks {
			if h.Status != HookRunning || h.Kind == "permission" {
				continue
			}
			if !start && h.Source == "z-late" && h.Event != contract.HookAfterToolCall {
				continue // a place it holds until it has subscribed
			}
			if at := h.Event + " " + h.Source + " " + h.File; at != last {
				listed[h.Event] = append(listed[h.Event], h.Source) // one link per Claude file
				last = at
			}
		}
		if d := cmp.Diff(chain, listed, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("start=%v: chain (-) and listing (+) differ:\n%s", start, d)
		}
	}
	if !slices.Equal(chain[contract.HookBeforeToolCall], []string{"a-guard", "cc", "claude-project", "claude-project"}) {
		t.Errorf("before_tool_call chain: %v", chain[contract.HookBeforeToolCall])
	}
}

// TestClaudePluginFilesInOrder: a plugin with two Claude hooks files (its
// hooks/hooks.json and another its manifest names) puts them in the chain
// in file order at every start, so its hooks' order and ids never change.
// They were read from a map, in a random order.
func TestClaudePluginFilesInOrder(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	dir := filepath.Join(base, "plugins", "two")
	write(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), `{"name":"two","hooks":"./extra/hooks.json"}`)
	write(t, filepath.Join(dir, "hooks", "hooks.json"), `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"first"}]}]}}`)
	write(t, filepath.Join(dir, "extra", "hooks.json"), `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"second"}]}]}}`)
	a, err := openLister(Options{BaseDir: base, WorkDir: work, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: base, ProjectDir: work})
	want := []string{filepath.Join(dir, "extra", "hooks.json"), filepath.Join(dir, "hooks", "hooks.json")}
	for range 20 {
		var files []string
		for _, e := range a.claude.table(plugins)[contract.HookBeforeToolCall] {
			files = append(files, e.Link.(*claude.Link).Hooks.File)
		}
		if d := cmp.Diff(want, files); d != "" {
			t.Fatalf("chain order (-want +got):\n%s", d)
		}
	}
}
