package plugin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSettingsAndSidecar: settings categories (alias "category") with
// fields of the four editors; a bad field is a warning and skipped; the
// sidecar with its lifecycle word, importance clamped.
func TestSettingsAndSidecar(t *testing.T) {
	m, err := ParseManifest("plugin.json", []byte(`{"name":"p",
		"settings":{"category":[{"id":"v","label":"Voice","fields":[
			{"key":"lang","label":"Language","editor":"cycler","options":["en","de"],"default":"en"},
			{"key":"n","editor":"text","numeric":true},
			{"key":"m","editor":"custom","config_key":"ignored"},
			{"key":"bad","editor":"slider"},
			{"key":"c","editor":"cycler"},
			{"editor":"text"}]}]},
		"provides":{"sidecar":{"command":"bin/sc","setup":"../x","model":{"default_path":"~/m.bin"},
			"lifecycle":{"command":"dictate","importance":500}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []SettingsCategory{{ID: "v", Label: "Voice", Fields: []SettingsField{
		{Key: "lang", Label: "Language", Editor: "cycler", Options: []string{"en", "de"}, Default: json.RawMessage(`"en"`)},
		{Key: "n", Label: "n", Editor: "text", Numeric: true},
		{Key: "m", Label: "m", Editor: "custom"},
	}}}
	if d := cmp.Diff(want, m.Settings); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
	wantSC := &Sidecar{Command: "bin/sc", ProtocolVersion: 1, ModelPath: "~/m.bin", Lifecycle: "dictate", DisplayName: "dictate", Importance: 100}
	if d := cmp.Diff(wantSC, m.Sidecar); d != "" {
		t.Errorf("sidecar (-want +got):\n%s", d)
	}
	for _, w := range []string{`fields[3].editor: editor "slider" is not one of text, cycler, picker, custom`,
		`fields[4].options: a cycler needs "options"`, `fields[5]: a settings field needs a "key"`,
		`provides.sidecar.setup: setup script "../x" climbs out of the plugin`} {
		if !strings.Contains(strings.Join(m.Warnings, "\n"), w) {
			t.Errorf("warnings %q lack %q", m.Warnings, w)
		}
	}
	f := m.SettingsField("lang")
	if f.Check("de") != nil || f.Check("fr") == nil {
		t.Errorf("cycler check: de %v, fr %v", f.Check("de"), f.Check("fr"))
	}
	if n := m.SettingsField("n"); n.Check("1.5") != nil || n.Check("soon") == nil {
		t.Error("numeric check")
	}
}
