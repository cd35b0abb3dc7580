package mcp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyImporter holds the rule that the MCP go-sdk is imported under
// internal/mcp only: its dependencies must not leak into the rest of the
// tree.
func TestOnlyImporter(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "npm") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(filepath.ToSlash(rel), "internal/mcp/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), `"github.com/modelcontextprotocol/go-sdk`) {
			t.Errorf("%s imports the MCP go-sdk; only internal/mcp may", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
