package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeManifest writes dir/.synaps-plugin/plugin.json.
func writeManifest(t *testing.T, dir, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ManifestDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestDir, ManifestFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPluginIDIsTheManifestName: the id is the manifest's name wherever
// the directory is and whatever it is called (SynapsCLI routes commands,
// settings and sidecars by the name); a directory named otherwise draws a
// warning, and a name that cannot be an id leaves the directory name.
func TestPluginIDIsTheManifestName(t *testing.T) {
	tests := []struct {
		name, dir, manifest string
		wantID              string
		wantWarn            string // substring of a warning, "" for none
		wantErr             bool
	}{
		{"same name", "voice", `{"name":"voice"}`, "voice", "", false},
		{"copied by hand under another name", "voice-main", `{"name":"voice"}`, "voice",
			`the directory name "voice-main" differs from the manifest name "voice"; the plugin id is "voice"`, false},
		{"a name with ':' is an error; the directory names it", "d", `{"name":"a:b"}`, "d", "", true},
		{"a name that is no id (leading dot)", "d", `{"name":".x"}`, "d", "", false},
		{"no manifest", "d", ``, "d", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tc.dir)
			if tc.manifest != "" {
				writeManifest(t, dir, tc.manifest)
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			p := LoadPlugin(tc.dir, dir, ScopeUser)
			if p.ID != tc.wantID {
				t.Errorf("ID = %q, want %q", p.ID, tc.wantID)
			}
			if (p.Err != nil) != tc.wantErr {
				t.Errorf("Err = %v, want error: %v", p.Err, tc.wantErr)
			}
			found := tc.wantWarn == ""
			for _, w := range p.Warnings {
				found = found || strings.Contains(w, tc.wantWarn)
			}
			if !found {
				t.Errorf("warnings %q lack %q", p.Warnings, tc.wantWarn)
			}
		})
	}
}

// TestDiscoverKeysByManifestName: two directories that give one name are
// not both that plugin; the second keeps its directory name and an error
// naming the first.
func TestDiscoverKeysByManifestName(t *testing.T) {
	base := t.TempDir()
	writeManifest(t, filepath.Join(base, "plugins", "a-copy"), `{"name":"voice"}`)
	writeManifest(t, filepath.Join(base, "plugins", "b-copy"), `{"name":"voice"}`)
	writeManifest(t, filepath.Join(base, "plugins", "other"), `{"name":"other"}`)
	plugins, err := Discover(DiscoverOptions{BaseDir: base})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range plugins {
		state := "ok"
		if p.Err != nil {
			state = p.Err.Error()
		}
		got[p.ID] = filepath.Base(p.Dir) + ": " + state
	}
	want := map[string]string{
		"voice":  "a-copy: ok",
		"b-copy": "b-copy: " + filepath.Join(base, "plugins", "b-copy") + `: the manifest name "voice" is already the id of the plugin in ` + filepath.Join(base, "plugins", "a-copy") + `; two plugins cannot share an id: rename one ("name" in .synaps-plugin/plugin.json)`,
		"other":  "other: ok",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("plugins (-want +got):\n%s", d)
	}
}

// TestInvalidExtensionLeavesTheRest: a problem inside "extension" makes
// the plugin partial — no extension, its other parts kept — while a
// problem elsewhere fails the plugin.
func TestInvalidExtensionLeavesTheRest(t *testing.T) {
	tests := []struct {
		name, manifest       string
		wantErr, wantExtErr  bool
		wantExtensionPresent bool
	}{
		{"valid", `{"name":"p","extension":{"command":"x","permissions":["tools.register"]}}`, false, false, true},
		{"bad protocol version", `{"name":"p","extension":{"command":"x","protocol_version":9,"permissions":["tools.register"]}}`, false, true, false},
		{"unknown permission", `{"name":"p","extension":{"command":"x","permissions":["tools.registr"]}}`, false, true, false},
		{"bad prebuilt digest", `{"name":"p","extension":{"command":"bin/x","permissions":["tools.register"],"prebuilt":{"linux-x86_64":{"url":"a","sha256":"xyz"}}}}`, false, true, false},
		{"setup outside the plugin", `{"name":"p","extension":{"command":"bin/x","permissions":["tools.register"],"setup":"../x.sh"}}`, false, true, false},
		{"bad name fails all", `{"name":"a b","extension":{"command":"x","permissions":["tools.register"]}}`, true, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			writeManifest(t, dir, tc.manifest)
			p := LoadPlugin("p", dir, ScopeUser)
			if (p.Err != nil) != tc.wantErr || (p.ExtensionErr != nil) != tc.wantExtErr {
				t.Fatalf("Err = %v, ExtensionErr = %v; want error %v, extension error %v", p.Err, p.ExtensionErr, tc.wantErr, tc.wantExtErr)
			}
			has := p.Manifest != nil && p.Manifest.Extension != nil
			if has != tc.wantExtensionPresent {
				t.Errorf("extension present = %v, want %v", has, tc.wantExtensionPresent)
			}
			if p.Spawnable() != tc.wantExtensionPresent {
				t.Errorf("Spawnable = %v", p.Spawnable())
			}
		})
	}
}

// TestInstallFields: extension.setup and extension.prebuilt as SynapsCLI
// writes them.
func TestInstallFields(t *testing.T) {
	sum := strings.Repeat("AB", 32)
	m, err := ParseManifest("plugin.json", []byte(`{"name":"p","extension":{"command":"bin/x","permissions":["tools.register"],
		"setup":"scripts/setup.sh",
		"prebuilt":{"linux-x86_64":{"url":"https://example.com/x.tar.gz","sha256":"`+sum+`"},"plan9-mips":{"url":"u","sha256":"`+sum+`"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := m.Extension
	want := map[string]Prebuilt{
		"linux-x86_64": {URL: "https://example.com/x.tar.gz", SHA256: strings.ToLower(sum)},
		"plan9-mips":   {URL: "u", SHA256: strings.ToLower(sum)},
	}
	if d := cmp.Diff(want, e.Prebuilt); d != "" || e.Setup != "scripts/setup.sh" {
		t.Errorf("setup %q, prebuilt (-want +got):\n%s", e.Setup, d)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], `extension.prebuilt.plan9-mips: unknown platform "plan9-mips"`) {
		t.Errorf("warnings = %q", m.Warnings)
	}
	_, err = ParseManifest("plugin.json", []byte(`{"name":"p","extension":{"command":"bin/x","permissions":["tools.register"],"prebuilt":{"linux-x86_64":{"url":"u"}}}}`))
	if err == nil || !strings.Contains(err.Error(), `extension.prebuilt.linux-x86_64.sha256: missing required field "sha256"`) {
		t.Errorf("err = %v", err)
	}
}
