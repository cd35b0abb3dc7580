package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A Claude Code manifest's component paths: a path or an array of paths
// (and for mcpServers the object itself); a wrong shape is a warning.
func TestClaudePathsParse(t *testing.T) {
	tests := []struct {
		name, manifest string
		want           ClaudePaths
		warning        string
	}{
		{"one path each", `{"name":"p","commands":"./c","agents":"./a","skills":"./s","mcpServers":"./m.json"}`,
			ClaudePaths{Commands: []string{"./c"}, Agents: []string{"./a"}, Skills: []string{"./s"}, MCPFiles: []string{"./m.json"}}, ""},
		{"arrays", `{"name":"p","commands":["./x.md","./y"],"mcpServers":["./m1.json","./m2.json"]}`,
			ClaudePaths{Commands: []string{"./x.md", "./y"}, MCPFiles: []string{"./m1.json", "./m2.json"}}, ""},
		{"inline servers", `{"name":"p","mcpServers":{"s":{"command":"x"}}}`,
			ClaudePaths{MCPInline: []byte(`{"s":{"command":"x"}}`)}, ""},
		{"lsp servers by path", `{"name":"p","lspServers":["./lsp/a.json"]}`, ClaudePaths{LSPFiles: []string{"./lsp/a.json"}}, ""},
		{"inline lsp servers", `{"name":"p","lspServers":{"py":{"command":"x"}}}`, ClaudePaths{LSPInline: []byte(`{"py":{"command":"x"}}`)}, ""},
		{"wrong shape", `{"name":"p","agents":3}`, ClaudePaths{}, "agents: must be a path or an array of paths, got a number; ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseManifest("/p/.claude-plugin/plugin.json", []byte(tt.manifest))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, m.ClaudePaths); diff != "" {
				t.Errorf("ClaudePaths (-want +got):\n%s", diff)
			}
			if got := strings.Join(m.Warnings, "\n"); !strings.Contains(got, tt.warning) {
				t.Errorf("warnings %q, want %q", got, tt.warning)
			}
		})
	}
	// A synaps manifest's "commands" is not read as Claude's paths.
	m, err := ParseManifest("/p/.synaps-plugin/plugin.json", []byte(`{"name":"p","commands":"./c"}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.ClaudePaths.Commands != nil {
		t.Errorf("synaps manifest: ClaudePaths.Commands = %v, want none", m.ClaudePaths.Commands)
	}
}

// Paths add to the defaults; one that leaves the plugin, or is
// absolute, is a warning and not used.
func TestClaudePathsResolve(t *testing.T) {
	dir := t.TempDir()
	p := &Plugin{ID: "p", Dir: dir, Manifest: &Manifest{File: filepath.Join(dir, ".claude-plugin", "plugin.json"),
		ClaudePaths: ClaudePaths{Commands: []string{"./extra", "../up", "/abs", "commands"}}}}
	got, warnings := p.CommandPaths()
	if diff := cmp.Diff([]string{filepath.Join(dir, "commands"), filepath.Join(dir, "extra")}, got); diff != "" {
		t.Errorf("CommandPaths (-want +got):\n%s", diff)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], `"../up" leaves the plugin directory`) || !strings.Contains(warnings[1], `"/abs" must be a path relative to the plugin root`) {
		t.Errorf("warnings = %q", warnings)
	}
	if err := os.MkdirAll(filepath.Join(dir, "extra"), 0o755); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Part{PartCommands}, p.Parts()); diff != "" {
		t.Errorf("Parts (-want +got):\n%s", diff)
	}
}

// A plugin's language servers: .lsp.json, the files the manifest names
// (one leaving the plugin is a warning) and the inline object.
func TestLSPSources(t *testing.T) {
	dir := t.TempDir()
	mf := filepath.Join(dir, ".claude-plugin", "plugin.json")
	p := &Plugin{ID: "p", Dir: dir, Manifest: &Manifest{File: mf, ClaudePaths: ClaudePaths{LSPFiles: []string{"./more.json", "../x.json"}, LSPInline: []byte(`{"a":{}}`)}}}
	if err := os.WriteFile(p.LSPFile(), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, warnings := p.LSPSources()
	want := []MCPSource{{File: filepath.Join(dir, ".lsp.json")}, {File: filepath.Join(dir, "more.json")}, {File: mf + "#lspServers", Data: []byte(`{"a":{}}`)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LSPSources (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `lspServers: "../x.json" leaves the plugin directory`) {
		t.Errorf("warnings %q", warnings)
	}
	if diff := cmp.Diff([]Part{PartLSP}, p.Parts()); diff != "" {
		t.Errorf("Parts (-want +got):\n%s", diff)
	}
}
