package plugin

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCodexHooks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cx")
	writeTree(t, dir, map[string]string{
		".codex-plugin/plugin.json": `{"name": "cx", "skills": "./skills/", "apps": "./.app.json", "interface": {"displayName": "Cx"}, "hooks": {}}`,
		"hooks.json":                `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./scripts/stop.sh"}, {"type": "command", "command": "echo ./x"}]}]}}`,
		".app.json":                 `{"apps": {}}`,
		".lsp.json":                 `{}`,
	})
	p := LoadPlugin("cx", dir, ScopeUser)
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	files, err := p.ClaudeHooks()
	if err != nil {
		t.Fatal(err)
	}
	got := string(files[p.CodexRootHooksFile()])
	want := `{"hooks":{"Stop":[{"hooks":[{"command":"${CLAUDE_PLUGIN_ROOT}/scripts/stop.sh","type":"command"},{"command":"echo ./x","type":"command"}]}]}}`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("root hooks.json: %s", d)
	}
	if d := cmp.Diff([]Part{PartClaudeHooks, PartLSP}, p.Parts()); d != "" {
		t.Errorf("parts: %s", d)
	}
	report := FormatSupport(p.Support())
	for _, w := range []string{"apps             refused", "lspServers       supported", "hooks            supported"} {
		if !strings.Contains(report, w) {
			t.Errorf("report lacks %q:\n%s", w, report)
		}
	}
}
