package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// TestAutoAllowSandboxed: permissions.auto_allow_sandboxed = true in the
// user's config lets confined bash run without a question; when the
// commands would not be confined, or the value is no boolean, a note
// names the file and key and the question stays. A project's own config
// cannot turn it on.
func TestAutoAllowSandboxed(t *testing.T) {
	confined := sandbox.Detect().LandlockABI > 0
	for _, tc := range []struct {
		name, config, project string
		want                  permission.Verdict
		note                  string
	}{
		{name: "unset", want: permission.Ask},
		{name: "on", config: "permissions.auto_allow_sandboxed = true\n", want: map[bool]permission.Verdict{true: permission.Allow, false: permission.Ask}[confined]},
		{name: "off", config: "permissions.auto_allow_sandboxed = false\n", want: permission.Ask},
		{name: "bad value", config: "permissions.auto_allow_sandboxed = sometimes\n", want: permission.Ask, note: `permissions.auto_allow_sandboxed = "sometimes" is neither true nor false`},
		{name: "sandbox off", config: "permissions.auto_allow_sandboxed = true\nsandbox.bash = off\n", want: permission.Ask, note: "permissions.auto_allow_sandboxed is on but sandbox.bash is off"},
		{name: "project only", project: "permissions.auto_allow_sandboxed = true\n", want: permission.Ask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, work := t.TempDir(), t.TempDir()
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(base, "config"), []byte(tc.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.project != "" {
				if err := os.MkdirAll(filepath.Join(work, ".synaps"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(work, ProjectConfig), []byte(tc.project), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			script := filepath.Join(work, "script.jsonl")
			if err := os.WriteFile(script, []byte(`{"text":"x"}`+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "script:" + script, Getenv: func(string) string { return "" }, NoExtensions: true, TrustProject: true, Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close(context.Background())
			in, _ := json.Marshal(map[string]string{"command": "make install"})
			d := a.Permissions.Decide(permission.Call{Name: "bash", RuntimeName: "bash", Builtin: true, Input: in})
			if d.Verdict != tc.want {
				t.Errorf("verdict %v (%s), want %v", d.Verdict, d.Why, tc.want)
			}
			if notes := strings.Join(a.Notes, "\n"); tc.note != "" && !strings.Contains(notes, tc.note) {
				t.Errorf("notes lack %q:\n%s", tc.note, notes)
			}
		})
	}
}
