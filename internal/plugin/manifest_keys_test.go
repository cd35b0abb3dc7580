package plugin

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Unknown top-level keys are warned of with where they belong; keys real
// SynapsCLI and Claude Code manifests use are not, and a Claude Code
// manifest is not checked.
func TestTopLevelKeyWarnings(t *testing.T) {
	tests := []struct {
		name, file, json string
		want             []string
	}{
		{"guide keys beside name", "p/.synaps-plugin/plugin.json",
			`{"name":"p","entry_point":"python3 main.py","permissions":["tools.register"]}`,
			[]string{
				`entry_point: unknown top-level key "entry_point" is ignored; it belongs under "extension", e.g. "extension": {"entry_point": …}`,
				`permissions: unknown top-level key "permissions" is ignored; it belongs under "extension", e.g. "extension": {"permissions": …}`,
			}},
		{"SynapsCLI keys beside name", "p/.synaps-plugin/plugin.json",
			`{"name":"p","command":"python3","args":["x.py"],"protocol_version":1,"runtime":"process","config":[]}`,
			[]string{
				`command: unknown top-level key "command" is ignored; it belongs under "extension", e.g. "extension": {"command": …}`,
				`args: unknown top-level key "args" is ignored; it belongs under "extension", e.g. "extension": {"args": …}`,
				`protocol_version: unknown top-level key "protocol_version" is ignored; it belongs under "extension", e.g. "extension": {"protocol_version": …}`,
				`runtime: unknown top-level key "runtime" is ignored; it belongs under "extension", e.g. "extension": {"runtime": …}`,
				`config: unknown top-level key "config" is ignored; it belongs under "extension", e.g. "extension": {"config": …}`,
			}},
		{"near misses", "p/.synaps-plugin/plugin.json",
			`{"name":"p","extensions":{},"descripton":"d","failurepolicy":"closed"}`,
			[]string{
				`extensions: unknown top-level key "extensions" is ignored; did you mean "extension"?`,
				`descripton: unknown top-level key "descripton" is ignored; did you mean "description"?`,
				`failurepolicy: unknown top-level key "failurepolicy" is ignored; did you mean "failure_policy"? It belongs under "extension"`,
			}},
		{"a key nothing is near", "p/.synaps-plugin/plugin.json",
			`{"name":"p","zzz":1}`,
			[]string{`zzz: unknown top-level key "zzz" is ignored; known keys are ` + strings.Join(topKeys, ", ")}},
		{"top-level key inside extension", "p/.synaps-plugin/plugin.json",
			`{"name":"p","extension":{"version":"1","entry_point":"python3 main.py","extension_protocol_version":1,"permissions":["tools.register"]}}`,
			[]string{`extension.version: unknown key "version" is ignored; it belongs at the top level of the manifest, beside "name", not under "extension"`}},
		{"registry keys of real manifests", "p/.synaps-plugin/plugin.json",
			`{"$schema":"s","name":"p","version":"1","description":"d","author":"a","license":"MIT","repository":"r","homepage":"h","keywords":["k"],"category":"c","compatibility":{"synaps":"1"},"help_entries":[],"keybinds":[],"hooks":"hooks/hooks.json","skills":[],"agents":[],"mcpServers":{},"outputStyles":"o","lspServers":{}}`,
			nil},
		{"a sandbox section is known (SynapsCLI dialect)", "p/.synaps-plugin/plugin.json",
			`{"name":"p","sandbox":{"read":["~/.config/p"],"write":["out"],"network":["api.github.com"]}}`,
			nil},
		{"a sandbox section is known (Claude Code dialect)", "p/.claude-plugin/plugin.json",
			`{"name":"p","sandbox":{"read":["~/.config/p"],"network":["api.github.com"]}}`,
			nil},
		{"a near miss of sandbox", "p/.synaps-plugin/plugin.json",
			`{"name":"p","sandbx":{}}`,
			[]string{`sandbx: unknown top-level key "sandbx" is ignored; did you mean "sandbox"?`}},
		{"a Claude Code manifest is not checked", "p/.claude-plugin/plugin.json",
			`{"name":"p","strict":true,"source":"./x"}`,
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseManifest(tt.file, []byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range m.Warnings {
				got = append(got, strings.TrimPrefix(w, tt.file+": "))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
