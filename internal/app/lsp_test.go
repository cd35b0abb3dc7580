package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
