package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fresh machine has no base dir: the first command creates it private
// (0700) with plugins/ inside, so the guide's `cp -r my-ext
// ~/.synaps-cli/plugins/` lands in the plugins dir instead of failing.
func TestEnsureBaseDirCreates(t *testing.T) {
	base := filepath.Join(t.TempDir(), "home", ".synaps-cli")
	if err := EnsureBaseDir(base); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(base)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o700 {
		t.Errorf("base mode = %o, want 700", got)
	}
	if info, err := os.Stat(filepath.Join(base, "plugins")); err != nil || !info.IsDir() {
		t.Errorf("plugins/ not created: %v", err)
	}
	// Idempotent.
	if err := EnsureBaseDir(base); err != nil {
		t.Fatal(err)
	}
}

// An existing base dir is the user's: its mode is left alone.
func TestEnsureBaseDirKeepsExistingMode(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	if err := os.Mkdir(base, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := EnsureBaseDir(base); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(base); info.Mode().Perm() != 0o750 {
		t.Errorf("mode changed to %o", info.Mode().Perm())
	}
}

func TestEnsureBaseDirErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, base string)
		want  []string
	}{
		{"base is a file", func(t *testing.T, base string) { write(t, base, "x") },
			[]string{" is a file", "SYNAPS_BASE_DIR"}},
		{"plugins is a file", func(t *testing.T, base string) {
			os.Mkdir(base, 0o700)
			write(t, filepath.Join(base, "plugins"), "x")
		}, []string{"plugins is not a directory", "move the file away"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "base")
			tc.setup(t, base)
			err := EnsureBaseDir(base)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) || !strings.Contains(err.Error(), base) {
					t.Errorf("error %q does not name %s and say %q", err, base, w)
				}
			}
		})
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
