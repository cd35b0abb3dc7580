package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/lsp/lsptest"
	"github.com/synaps-cli/synaps/internal/tool"
)

// The servers of enabled plugins are read from .lsp.json and the
// manifest; a bad entry is an error naming the file; a disabled
// plugin's servers are not read; the listing shows each.
func TestLSPServers(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	pdir := filepath.Join(base, "plugins", "py")
	write(t, filepath.Join(pdir, ".claude-plugin", "plugin.json"), `{"name":"py","lspServers":{"inline":{"command":"x","extensionToLanguage":{".pyi":"python"}}}}`)
	write(t, filepath.Join(pdir, ".lsp.json"), `{"python":{"command":"${CLAUDE_PLUGIN_ROOT}/bin/ls","extensionToLanguage":{".py":"python"}},"bad":{"extensionToLanguage":{".x":"x"}}}`)
	write(t, filepath.Join(base, "plugins", "off", ".claude-plugin", "plugin.json"), `{"name":"off"}`)
	write(t, filepath.Join(base, "plugins", "off", ".lsp.json"), `{"go":{"command":"gopls","extensionToLanguage":{".go":"go"}}}`)
	write(t, filepath.Join(base, "config"), "disabled_plugins = off\n")
	servers, errs := LSPServers(base, work, false)
	var names []string
	for _, sv := range servers {
		names = append(names, sv.PluginID+"/"+sv.Name)
		if sv.PluginDir != pdir || sv.PluginData != filepath.Join(base, "plugin-data", "py") {
			t.Errorf("%s: dir %q data %q", sv.Name, sv.PluginDir, sv.PluginData)
		}
	}
	if diff := cmp.Diff([]string{"py/python", "py/inline"}, names); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), filepath.Join(pdir, ".lsp.json")+`: language server "bad": "command" is required`) {
		t.Errorf("errors %v", errs)
	}
	list := ListLSP(base, work, false)
	for _, want := range []string{"SERVER  PLUGIN  FILES  STATUS", "python  py      .py    idle", "inline  py      .pyi   idle", `"bad": "command" is required`} {
		if !strings.Contains(list, want) {
			t.Errorf("listing lacks %q:\n%s", want, list)
		}
	}
}

// In a session: write gets the fake server's new error; a failed write
// gets nothing added; /extensions disable ends the plugin's server and
// the next write gets no diagnostics; a bad config read at reload is a
// notice.
func TestLSPInSession(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	pdir := filepath.Join(base, "plugins", "fk")
	write(t, filepath.Join(pdir, ".claude-plugin", "plugin.json"), `{"name":"fk"}`)
	lspJSON, _ := json.Marshal(map[string]any{"fake": map[string]any{
		"command": os.Args[0], "extensionToLanguage": map[string]string{".fk": "fake"}, "env": map[string]string{lsptest.EnvMode: "ok"}}})
	write(t, filepath.Join(pdir, ".lsp.json"), string(lspJSON))
	var notices []string
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, NoModelOK: true, Version: "test",
		OnEvent: func(e agent.Event) {
			if e.Type == agent.EventNotice {
				notices = append(notices, e.Text)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	run := func(name, input string) tool.Result {
		t.Helper()
		tl, _, ok := a.Tools.Lookup(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		res, err := tl.Run(t.Context(), json.RawMessage(input))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// The wrapper keeps the question's diff (tool.Previewer).
	if tl, _, _ := a.Tools.Lookup("write"); tl != nil {
		if pv, ok := tl.(tool.Previewer); !ok || pv.Preview(t.Context(), json.RawMessage(`{"path":"a.fk","content":"x\n"}`)) == nil {
			t.Errorf("write's preview is lost: %T", tl)
		}
	}
	if res := run("write", `{"path":"a.fk","content":"error: bad\n"}`); !strings.Contains(res.Output, "reports 1 new error in a.fk:\n  a.fk:1:1: bad (fake F1)") {
		t.Errorf("write: %q", res.Output)
	}
	if res := run("edit", `{"path":"a.fk","old_string":"absent","new_string":"error: x"}`); !res.IsError || strings.Contains(res.Output, "Language server") {
		t.Errorf("failed edit: %+v", res)
	}
	if sts := a.LSPStatuses(); len(sts) != 1 || sts[0].State != "running" {
		t.Errorf("statuses %+v", sts)
	}
	if _, err := a.Slash(t.Context(), "/extensions disable fk"); err != nil {
		t.Fatal(err)
	}
	if res := run("write", `{"path":"b.fk","content":"error: bad\n"}`); strings.Contains(res.Output, "Language server") {
		t.Errorf("disabled plugin's server answered: %q", res.Output)
	}
	write(t, filepath.Join(pdir, ".lsp.json"), `{"fake":{"command":"x"}}`)
	if _, err := a.Slash(t.Context(), "/extensions enable fk"); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, `"extensionToLanguage" is required`) }) {
		t.Errorf("notices %q", notices)
	}
}
