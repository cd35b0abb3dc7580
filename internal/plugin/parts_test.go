package plugin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParts(t *testing.T) {
	dir := t.TempDir()
	p := &Plugin{ID: "p", Dir: dir}
	if got := p.Parts(); len(got) != 0 {
		t.Errorf("empty plugin: Parts() = %v, want none", got)
	}
	if err := os.Mkdir(filepath.Join(dir, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	p.Manifest = &Manifest{Extension: &ExtensionManifest{Command: "x"}}
	if diff := cmp.Diff([]Part{PartExtension, PartSkills}, p.Parts()); diff != "" {
		t.Errorf("Parts() (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(p.MCPFile(), []byte(`{"s":{"command":"s"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Part{PartExtension, PartSkills, PartMCP}, p.Parts()); diff != "" {
		t.Errorf("Parts() with .mcp.json (-want +got):\n%s", diff)
	}
}
