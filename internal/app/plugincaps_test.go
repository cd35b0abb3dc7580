package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// capsPlugin writes a plugin of the given files and loads it.
func capsPlugin(t *testing.T, files map[string]string) *plugin.Plugin {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	for rel, body := range files {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := plugin.LoadPlugin("p", dir, plugin.ScopeUser)
	if err := p.LoadErr(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCapabilityDiff(t *testing.T) {
	const manifest = ".synaps-plugin/plugin.json"
	tests := []struct {
		name                string
		old, new            map[string]string
		wantAdded, wantGone []string
	}{
		{
			name:      "guide dialect: a hook permission",
			old:       map[string]string{manifest: `{"name":"p","extension":{"entry_point":"python3 main.py","extension_protocol_version":1,"permissions":["tools.register"]}}`},
			new:       map[string]string{manifest: `{"name":"p","extension":{"entry_point":"python3 main.py","extension_protocol_version":1,"permissions":["tools.register","hooks.before_tool_call"]}}`},
			wantAdded: []string{"permission hooks.before_tool_call"},
		},
		{
			name:      "SynapsCLI dialect: tools.intercept and its hook, a new launch",
			old:       map[string]string{manifest: `{"name":"p","extension":{"command":"bin/x","protocol_version":1,"permissions":["session.lifecycle"],"hooks":[{"hook":"on_session_start"}]}}`},
			new:       map[string]string{manifest: `{"name":"p","extension":{"command":"bin/y","protocol_version":1,"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","tool":"bash"}]}}`},
			wantAdded: []string{"hook before_tool_call (tool bash)", "permission tools.intercept", "starts bin/y"},
			wantGone:  []string{"hook on_session_start", "permission session.lifecycle", "starts bin/x"},
		},
		{
			name: "sandbox, environment, MCP server, Claude hook and command",
			old:  map[string]string{manifest: `{"name":"p","sandbox":{"read":["~/.config/p"]}}`, "commands/a.md": "a"},
			new: map[string]string{
				manifest:           `{"name":"p","sandbox":{"read":["~/.config/p"],"write":["out"],"network":["api.example.com"]},"extension":{"command":"x","protocol_version":1,"env":["GITHUB_TOKEN"],"permissions":["tools.register"]}}`,
				"commands/a.md":    "a",
				"commands/b.md":    "b",
				".mcp.json":        `{"mcpServers":{"db":{"command":"db-server","args":["--rw"]}}}`,
				"hooks/hooks.json": `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh"}]}]}}`,
			},
			wantAdded: []string{
				"claude hook PreToolUse[Bash]: ./check.sh", "command /p:b", "environment variable GITHUB_TOKEN",
				"mcp server db: db-server --rw", "permission tools.register", "sandbox network api.example.com",
				"sandbox write out", "starts x",
			},
		},
		{
			name:      "a language server (Claude plugin, .lsp.json and inline)",
			old:       map[string]string{".claude-plugin/plugin.json": `{"name":"p"}`},
			new:       map[string]string{".claude-plugin/plugin.json": `{"name":"p","lspServers":{"go":{"command":"gopls","extensionToLanguage":{".go":"go"}}}}`, ".lsp.json": `{"python":{"command":"pyright-langserver","args":["--stdio"],"extensionToLanguage":{".py":"python"}}}`},
			wantAdded: []string{"lsp server go: gopls", "lsp server python: pyright-langserver --stdio"},
		},
		{
			name: "nothing it may do changes",
			old:  map[string]string{manifest: `{"name":"p","version":"1","extension":{"command":"x","protocol_version":1,"permissions":["tools.register"]}}`},
			new:  map[string]string{manifest: `{"name":"p","version":"2","description":"new","extension":{"command":"x","protocol_version":1,"permissions":["tools.register"]}}`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			added, gone := CapabilityDiff(capsPlugin(t, tc.old), capsPlugin(t, tc.new))
			if diff := cmp.Diff(tc.wantAdded, added); diff != "" {
				t.Errorf("added (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantGone, gone); diff != "" {
				t.Errorf("removed (-want +got):\n%s", diff)
			}
		})
	}
}
