package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// configPlugin is a plugin dir "cfgp" with the given config entries
// (JSON text of the array) and plugin config file content.
func configPlugin(t *testing.T, entries, file string) *plugin.Plugin {
	t.Helper()
	dir := t.TempDir()
	m, err := plugin.ParseManifest("plugin.json", []byte(`{"name":"cfgp","extension":{"command":"x","permissions":["tools.register"],"config":`+entries+`}}`))
	if err != nil {
		t.Fatal(err)
	}
	if file != "" {
		if err := os.WriteFile(filepath.Join(dir, "config"), []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return &plugin.Plugin{ID: "cfgp", Dir: dir, Manifest: m}
}

// TestConfigLookupOrder: SynapsCLI's order — environment, then the user's
// config (the plugin's file, then the global key), then secret_env, then
// the default — with values converted to the entry's type.
func TestConfigLookupOrder(t *testing.T) {
	const entries = `[
		{"key":"a","secret_env":"A_SECRET","default":"dflt"},
		{"key":"b","secret_env":"B_SECRET","default":"dflt"},
		{"key":"c","secret_env":"C_SECRET","default":"dflt"},
		{"key":"d","secret_env":"D_SECRET","default":"dflt"},
		{"key":"e","secret_env":"E_SECRET","default":"dflt"},
		{"key":"max-items","type":"number","default":3},
		{"key":"verbose","type":"bool","default":false},
		{"key":"root","host_context":"project_root"}]`
	p := configPlugin(t, entries, "a = file\nb = file\nverbose = yes\nroot = ignored\n")
	env := map[string]string{
		"SYNAPS_EXTENSION_CFGP__A": "env", "A_SECRET": "secret",
		"B_SECRET": "secret", "C_SECRET": "secret", "D_SECRET": "secret",
		"SYNAPS_EXTENSION_CFGP_MAX_ITEMS": "7.5",
	}
	global, _ := config.Parse("cfg", []byte("extension.cfgp.b = global\nextension.cfgp.c = global\n"))
	got, _, err := resolveConfig(configSources{getenv: func(k string) string { return env[k] }, global: global, projectDir: "/proj"}, p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": "env", "b": "file", "c": "global", "d": "secret", "e": "dflt",
		"max-items": 7.5, "verbose": true, "root": "/proj",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolved config (-want +got):\n%s", diff)
	}
}

func TestConfigBadValues(t *testing.T) {
	tests := []struct{ entries, file, want string }{
		{`[{"key":"n","type":"number"}]`, "n = many\n", `config "n" from ` /* the file's path */},
		{`[{"key":"v","type":"bool"}]`, "v = maybe\n", `"maybe" is not a boolean (use true or false)`},
		{`[{"key":"t","required":true,"secret_env":"T_SECRET"}]`, "", "config \"t\" is required but not set; set it in one of: environment variable SYNAPS_EXTENSION_CFGP__T"},
	}
	for _, tt := range tests {
		p := configPlugin(t, tt.entries, tt.file)
		_, _, err := resolveConfig(configSources{getenv: func(string) string { return "" }}, p)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s with %q: err = %v, want %q", tt.entries, tt.file, err, tt.want)
		}
	}
}

func TestSetConfig(t *testing.T) {
	p := configPlugin(t, `[{"key":"max-items","type":"number"},{"key":"root","host_context":"project_root"}]`, "# kept\n")
	if _, err := SetConfig(p, "max-items", "12", false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ key, value, want string }{
		{"max-items", "lots", `config "max-items" of plugin cfgp is of type number: "lots" is not a number`},
		{"nope", "1", `plugin cfgp has no config key "nope" (it declares max-items, root in plugin.json)`},
		{"root", "/x", `comes from synaps (host_context "project_root") and cannot be set`},
		{"a.b", "1", `config key "a.b" is not valid`},
	} {
		if _, err := SetConfig(p, tt.key, tt.value, false); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SetConfig(%s, %s): %v, want %q", tt.key, tt.value, err, tt.want)
		}
	}
	if _, err := SetConfig(p, "own-key", "v", true); err != nil {
		t.Errorf("an undeclared key from the extension itself: %v", err)
	}
	data, _ := os.ReadFile(PluginConfigFile(p))
	if diff := cmp.Diff("# kept\nmax-items = 12\nown-key = v\n", string(data)); diff != "" {
		t.Errorf("config file (-want +got):\n%s", diff)
	}
	vals, err := ConfigValues(p, func(string) string { return "" }, nil, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vals {
		got = append(got, v.Key+"="+v.String()+" ("+filepath.Base(v.Source)+")")
	}
	if diff := cmp.Diff([]string{"max-items=12 (config)", "root=/proj (host (project root))", "own-key=v (config)"}, got); diff != "" {
		t.Errorf("ConfigValues (-want +got):\n%s", diff)
	}
}
