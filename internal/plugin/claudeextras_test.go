package plugin

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClaudeExtras(t *testing.T) {
	m, err := ParseManifest("/p/.claude-plugin/plugin.json", []byte(`{
		"name": "x",
		"userConfig": {
			"api_url": {"type": "string", "title": "API URL", "required": true, "default": "https://example.test"},
			"token": {"title": "Token", "sensitive": true},
			"retries": {"type": "number", "min": 0, "max": 5}
		},
		"outputStyles": "./styles",
		"dependencies": ["helper", "tools@market", {"name": "vault", "version": "^2.1"}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range m.UserConfig {
		keys = append(keys, o.Key+":"+o.Type)
	}
	if d := cmp.Diff([]string{"api_url:string", "token:string", "retries:number"}, keys); d != "" {
		t.Errorf("userConfig (-want +got):\n%s", d)
	}
	if !m.UserConfig[1].Sensitive || !m.UserConfig[0].Required || m.UserConfig[0].Default != "https://example.test" || *m.UserConfig[2].Max != 5 {
		t.Errorf("option fields not read: %+v", m.UserConfig)
	}
	if d := cmp.Diff([]string{"./styles"}, m.OutputStyles); d != "" {
		t.Errorf("outputStyles (-want +got):\n%s", d)
	}
	var deps []string
	for _, d := range m.Dependencies {
		deps = append(deps, d.String())
	}
	if d := cmp.Diff([]string{"helper", "tools@market", "vault ^2.1"}, deps); d != "" {
		t.Errorf("dependencies (-want +got):\n%s", d)
	}

	bad := []struct{ json, want string }{
		{`{"name":"x","userConfig":[1]}`, "userConfig: must be an object"},
		{`{"name":"x","userConfig":{"a-b":{}}}`, "userConfig.a-b: the key must be letters"},
		{`{"name":"x","userConfig":{"a":{"type":"color"}}}`, `userConfig.a.type: "color" is not an option type`},
		{`{"name":"x","dependencies":{"a":"1"}}`, "dependencies: must be an array"},
		{`{"name":"x","dependencies":[{"name":"a","version":"^two"}]}`, "dependencies[0].version"},
		{`{"name":"x","dependencies":[{"name":"../a"}]}`, "dependencies[0]"},
	}
	for _, b := range bad {
		_, err := ParseManifest("/p/.claude-plugin/plugin.json", []byte(b.json))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want one containing %q", b.json, err, b.want)
		}
	}
}
