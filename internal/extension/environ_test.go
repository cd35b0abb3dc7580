package extension

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A plugin's config variable never sets another plugin's key: plugin
// deploy's prod_token and plugin deploy-prod's token have different
// names; the SynapsCLI spelling they share is not read (with a warning),
// while an unshared SynapsCLI spelling still works; names that collide
// even with the double underscore fail both plugins, naming each other.
func TestConfigEnvNamesDoNotCrossPlugins(t *testing.T) {
	base := t.TempDir()
	cfg := func(keys ...string) map[string]any {
		var entries []map[string]any
		for _, k := range keys {
			entries = append(entries, map[string]any{"key": k})
		}
		return map[string]any{"config": entries}
	}
	dirs := map[string]string{}
	for id, key := range map[string]string{"deploy": "prod_token", "deploy-prod": "token", "solo": "k", "a-b": "x", "a_b": "x"} {
		dirs[id] = fakePlugin(t, base, id, cfg(key), fakeSpec{Record: true})
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		// want is the config each plugin received ("failed: …" when it
		// failed to load), warn the warnings of deploy
		want map[string]string
		warn string
	}{
		{
			name: "the shared SynapsCLI spelling reaches nobody",
			env:  map[string]string{"SYNAPS_EXTENSION_DEPLOY_PROD_TOKEN": "s3cret", "SYNAPS_EXTENSION_SOLO_K": "legacy ok"},
			want: map[string]string{"deploy": "{}", "deploy-prod": "{}", "solo": `{"k":"legacy ok"}`},
			warn: `config "prod_token": environment variable SYNAPS_EXTENSION_DEPLOY_PROD_TOKEN is not read, because it is also the name of plugin deploy-prod's key "token"; set SYNAPS_EXTENSION_DEPLOY__PROD_TOKEN instead`,
		},
		{
			name: "the double underscore names one plugin's key",
			env:  map[string]string{"SYNAPS_EXTENSION_DEPLOY__PROD_TOKEN": "for deploy", "SYNAPS_EXTENSION_DEPLOY_PROD__TOKEN": "for deploy-prod", "SYNAPS_EXTENSION_SOLO__K": "new"},
			want: map[string]string{"deploy": `{"prod_token":"for deploy"}`, "deploy-prod": `{"token":"for deploy-prod"}`, "solo": `{"k":"new"}`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, dir := range dirs {
				os.Remove(filepath.Join(dir, "init.json"))
			}
			h := startHost(t, base, func(o *Options) { o.Getenv = func(k string) string { return tc.env[k] } })
			got := map[string]string{}
			for _, id := range []string{"deploy", "deploy-prod", "solo"} {
				b, err := os.ReadFile(filepath.Join(dirs[id], "init.json"))
				if err != nil {
					t.Fatalf("%s did not initialize: %v (%+v)", id, err, statusOf(t, h, id))
				}
				var init struct{ Config json.RawMessage }
				json.Unmarshal(b, &init)
				got[id] = string(init.Config)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("config received (-want +got):\n%s", d)
			}
			if w := strings.Join(statusOf(t, h, "deploy").Warnings, "\n"); tc.warn != "" && !strings.Contains(w, tc.warn) {
				t.Errorf("deploy warnings = %q", w)
			}
			for id, other := range map[string]string{"a-b": "a_b", "a_b": "a-b"} {
				st := statusOf(t, h, id)
				want := `config "x": its environment variable SYNAPS_EXTENSION_A_B__X is also the one of plugin ` + other + `'s key "x"`
				if st.State != StateFailed || !strings.Contains(st.Error, want) || !strings.Contains(st.Error, "rename one of the plugin directories") {
					t.Errorf("%s: %s %q, want failed with %q", id, st.State, st.Error, want)
				}
			}
		})
	}
}
