package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// A plugin keybind's run_script runs under the plugin's policy, as its
// shell commands do (sandbox_plugin_commands.txtar): a planted
// ~/.ssh/id_rsa is refused and the output says why; sandbox.plugins = off
// runs it as the user.
func TestKeyScriptRunsConfined(t *testing.T) {
	if sandbox.Detect().LandlockABI == 0 {
		t.Skip("the kernel has no Landlock")
	}
	root := t.TempDir()
	home, project, dir := filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "plugin")
	for _, d := range []string{filepath.Join(home, ".ssh"), project, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("SECRET KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "peek.sh"), []byte("cat \"$HOME/.ssh/id_rsa\"\necho ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return os.Getenv(k)
	}
	k := KeyBinding{Plugin: "peek", Dir: dir, Keybind: plugin.Keybind{Key: "C-p", Action: "run_script", Script: "peek.sh"}}
	for _, tc := range []struct {
		name    string
		plugins bool
		secret  bool
	}{{"confined", true, false}, {"sandbox.plugins = off", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			c := sandbox.DefaultConfig()
			c.Plugins = tc.plugins
			a := &App{BaseDir: filepath.Join(home, ".synaps-cli"), WorkDir: project, sandbox: c,
				env: append(os.Environ(), "HOME="+home)}
			a.opts.Getenv = getenv
			out, _ := a.RunKeyScript(context.Background(), k)
			if strings.Contains(out, "SECRET") != tc.secret {
				t.Fatalf("key read = %v, want %v; output:\n%s", !tc.secret, tc.secret, out)
			}
			if !strings.Contains(out, "ran") {
				t.Fatalf("the script did not run:\n%s", out)
			}
			if !tc.secret && !strings.Contains(out, "blocked by the sandbox: read of a credential store: "+home+"/.ssh/id_rsa") {
				t.Fatalf("the refusal is not said:\n%s", out)
			}
		})
	}
}
