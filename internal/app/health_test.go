package app

import (
	"context"
	"path/filepath"
	"testing"
)

// TestHealthCountsSettingsHooks: Claude Code settings hooks that run are
// on the status line; a plugin's Claude hooks count with its plugin, and
// hooks that do not run (an untrusted project's) are not counted.
func TestHealthCountsSettingsHooks(t *testing.T) {
	for _, tc := range []struct {
		name        string
		user, trust bool
		want        string
	}{
		{"none", false, false, "ext 0 ok"},
		{"the user's", true, false, "ext 0 ok · 2 settings hooks"},
		{"the user's and a trusted project's", true, true, "ext 0 ok · 3 settings hooks"},
		{"a trusted project's", false, true, "ext 0 ok · 1 settings hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, work, home := t.TempDir(), t.TempDir(), t.TempDir()
			if tc.user {
				write(t, filepath.Join(home, ".claude", "settings.json"),
					`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}`)
			}
			write(t, filepath.Join(work, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"true"}]}]}}`)
			write(t, filepath.Join(work, "turns.jsonl"), `{"text":"x"}`+"\n")
			getenv := func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}
			a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: getenv, TrustProject: tc.trust, Model: "script:turns.jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close(context.Background()) })
			if got := a.Health(); got != tc.want {
				t.Errorf("Health = %q, want %q", got, tc.want)
			}
		})
	}
}
