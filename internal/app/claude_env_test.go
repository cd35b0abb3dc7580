package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolEnvWarnedOnce: the tools' environment is worked out once at
// Open, so a bad tool_env_allow entry is one note, though built-ins and
// Claude hooks both use it.
func TestToolEnvWarnedOnce(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(base, "config"), []byte("tool_env_allow = 9X\n"), 0o600)
	dir := filepath.Join(base, "plugins", "c", ".claude-plugin")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"c"}`), 0o644)
	os.MkdirAll(filepath.Join(base, "plugins", "c", "hooks"), 0o755)
	os.WriteFile(filepath.Join(base, "plugins", "c", "hooks", "hooks.json"), []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}`), 0o644)
	os.WriteFile(filepath.Join(work, "t.jsonl"), []byte(`{"text":"hi"}`+"\n"), 0o644)
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "script:t.jsonl", Getenv: func(string) string { return "" }, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	if err := a.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := strings.Count(strings.Join(a.Notes, "\n"), `"9X" is not an environment variable name`)
	if n != 1 {
		t.Errorf("the tool_env_allow warning is in the notes %d times: %q", n, a.Notes)
	}
}
