package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// TestExpandOptions: a value with quotes and backslashes keeps the
// hooks file valid JSON and decodes to itself; an unset option is empty.
func TestExpandOptions(t *testing.T) {
	in := []byte(`{"c":"run ${user_config.a} ${user_config.missing}!"}`)
	out := expandOptions(in, map[string]string{"a": `say "hi" \ <b>`})
	var v map[string]string
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("not JSON after expansion: %s: %v", out, err)
	}
	if d := cmp.Diff(`run say "hi" \ <b> !`, v["c"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestSecretsPrivate: a sensitive option goes to a 0600 file, never to
// the config.
func TestSecretsPrivate(t *testing.T) {
	base := t.TempDir()
	m, err := plugin.ParseManifest("/x/.claude-plugin/plugin.json", []byte(`{"name":"k","userConfig":{"tok":{"sensitive":true},"n":{"type":"boolean"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := &plugin.Plugin{ID: "k", Manifest: m}
	if _, err := SetUserOptions(base, p, []string{"tok=abc", "n=TRUE"}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(SecretsFile(base))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secrets file: %v %v", st, err)
	}
	cfg, _ := os.ReadFile(filepath.Join(base, "config"))
	if d := cmp.Diff("extension.k.n = true\n", string(cfg)); d != "" {
		t.Errorf("config (-want +got):\n%s", d)
	}
	if _, err := SetUserOptions(base, p, []string{"n=maybe"}); err == nil {
		t.Error("n=maybe accepted for a boolean")
	}
	if _, err := SetUserOptions(base, p, []string{"tok="}); err != nil {
		t.Fatal(err)
	}
	s, _ := readSecrets(base)
	if len(s) != 0 {
		t.Errorf("removing the last secret left %v", s)
	}
}
