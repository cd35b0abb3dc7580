package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/safefile/fifotest"
)

// pinTree writes a small plugin: a manifest, an executable script, a
// symlink to it, and a __pycache__ that pins leave out.
func pinTree(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	write := func(rel, body string, mode os.FileMode) {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	write(".synaps-plugin/plugin.json", `{"name":"p","version":"1.0.0"}`, 0o644)
	write("run.sh", "#!/bin/sh\n", 0o755)
	write("__pycache__/m.pyc", "bytecode", 0o644)
	if err := os.Symlink("run.sh", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDigestNoticesEveryKindOfChange(t *testing.T) {
	tests := []struct {
		name string
		edit func(dir string) error
		want []string // DiffFiles; nil: the digest is unchanged
	}{
		{"nothing", func(string) error { return nil }, nil},
		{"bytes", func(d string) error {
			return os.WriteFile(filepath.Join(d, "run.sh"), []byte("#!/bin/sh\nrm -rf ~\n"), 0o755)
		},
			[]string{"run.sh (changed)"}},
		{"mode", func(d string) error { return os.Chmod(filepath.Join(d, "run.sh"), 0o700) }, []string{"run.sh (changed)"}},
		{"symlink target", func(d string) error {
			os.Remove(filepath.Join(d, "link"))
			return os.Symlink(".synaps-plugin/plugin.json", filepath.Join(d, "link"))
		}, []string{"link (changed)"}},
		{"added", func(d string) error { return os.WriteFile(filepath.Join(d, "new"), nil, 0o644) }, []string{"new (added)"}},
		{"removed", func(d string) error { return os.Remove(filepath.Join(d, "run.sh")) }, []string{"run.sh (removed)"}},
		{"byte-code cache is not the plugin", func(d string) error {
			return os.WriteFile(filepath.Join(d, "__pycache__", "other.pyc"), []byte("x"), 0o644)
		}, nil},
		{"the user's config file is not the plugin", func(d string) error {
			os.WriteFile(filepath.Join(d, "config.lock"), nil, 0o600)
			return os.WriteFile(filepath.Join(d, "config"), []byte("max_lines = 5\n"), 0o600)
		}, nil},
		{"a config file deeper down is the plugin's", func(d string) error {
			return os.WriteFile(filepath.Join(d, ".synaps-plugin", "config"), []byte("x"), 0o644)
		}, []string{".synaps-plugin/config (added)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := pinTree(t)
			d1, f1, err := Digest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := f1["__pycache__/m.pyc"]; ok {
				t.Errorf("__pycache__ was measured: %v", f1)
			}
			if err := tc.edit(dir); err != nil {
				t.Fatal(err)
			}
			d2, f2, err := Digest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if (d1 == d2) != (tc.want == nil) {
				t.Errorf("digest before %s, after %s; want them equal: %v", d1, d2, tc.want == nil)
			}
			if diff := cmp.Diff(tc.want, DiffFiles(f1, f2)); diff != "" {
				t.Errorf("DiffFiles (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckPinStates(t *testing.T) {
	base := t.TempDir()
	dir := pinTree(t)
	p := &Plugin{ID: "p", Dir: dir, Scope: ScopeUser}
	if got := CheckPin(base, p).State; got != PinUnpinned {
		t.Errorf("no record: %q, want %q", got, PinUnpinned)
	}
	if _, err := Pin(base, p, "install", PinSource{Kind: "dir", Location: dir}); err != nil {
		t.Fatal(err)
	}
	if got := CheckPin(base, p); got.State != PinPinned {
		t.Errorf("just pinned: %+v, want pinned", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("changed"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := PinCheck{State: PinModified, Changed: []string{"run.sh (changed)"}}
	if diff := cmp.Diff(want, CheckPin(base, p)); diff != "" {
		t.Errorf("edited (-want +got):\n%s", diff)
	}
	// Project plugins are trust's, not pins'.
	if got := CheckPin(base, &Plugin{ID: "p", Dir: dir, Scope: ScopeProject}); got.State != "" {
		t.Errorf("project plugin: %+v, want no pin state", got)
	}
	// A record that is not JSON is said, with the fix.
	if err := os.WriteFile(PinFile(base, "p"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := CheckPin(base, p); got.State != PinUnknown || !strings.Contains(got.Problem, "synaps plugins approve p") {
		t.Errorf("bad record: %+v", got)
	}
}

func TestDiscoverStrictHoldsOnlyModified(t *testing.T) {
	base := t.TempDir()
	for _, id := range []string{"kept", "edited", "loose"} {
		dir := filepath.Join(base, "plugins", id)
		if err := os.MkdirAll(filepath.Join(dir, ManifestDir), 0o755); err != nil {
			t.Fatal(err)
		}
		manifest := `{"name":"` + id + `","extension":{"command":"x","protocol_version":1,"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call"}],"failure_policy":"closed"}}`
		if err := os.WriteFile(filepath.Join(dir, ManifestDir, ManifestFile), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if id != "loose" {
			if _, err := Pin(base, &Plugin{ID: id, Dir: dir, Scope: ScopeUser}, "install", PinSource{Kind: "dir"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(base, "plugins", "edited", "x"), []byte("new"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, verify := range []string{"warn", VerifyStrict} {
		plugins, err := Discover(DiscoverOptions{BaseDir: base, Verify: verify})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, p := range plugins {
			got[p.ID] = p.Spawnable()
			if p.ID == "edited" && verify == VerifyStrict {
				if !p.PinHeld || !strings.Contains(p.Err.Error(), "synaps plugins approve edited") {
					t.Errorf("held plugin: Held %v, Err %v", p.PinHeld, p.Err)
				}
				// A fail-closed guard held back keeps blocking the
				// calls it would have judged.
				if len(p.BrokenGuard) == 0 {
					t.Errorf("held fail-closed guard has no BrokenGuard subscriptions")
				}
			}
		}
		want := map[string]bool{"kept": true, "edited": verify != VerifyStrict, "loose": true}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("verify %s: spawnable (-want +got):\n%s", verify, diff)
		}
	}
}

func TestDigestBounds(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxPinBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := Digest(dir); err == nil || !strings.Contains(err.Error(), "too much to measure") {
		t.Errorf("Digest of a tree past MaxPinBytes: %v, want the bound named", err)
	}
	if err := os.Remove(filepath.Join(dir, "big")); err != nil {
		t.Fatal(err)
	}
	if err := fifotest.Make(filepath.Join(dir, "pipe")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, _, err := Digest(dir); err == nil || !strings.Contains(err.Error(), "not a file, directory or symlink") {
		t.Errorf("Digest of a tree with a FIFO: %v, want it refused (not opened)", err)
	}
}

// TestCheckPinSeesInPlaceRewrite: a remembered file sum is not reused
// for a file rewritten in place with its size and modification time put
// back (its ctime moved).
func TestCheckPinSeesInPlaceRewrite(t *testing.T) {
	base := t.TempDir()
	dir := pinTree(t)
	p := &Plugin{ID: "p", Dir: dir, Scope: ScopeUser}
	if _, err := Pin(base, p, "install", PinSource{Kind: "dir"}); err != nil {
		t.Fatal(err)
	}
	if got := CheckPin(base, p).State; got != PinPinned {
		t.Fatalf("just pinned: %q", got)
	}
	script := filepath.Join(dir, "run.sh")
	info, err := os.Stat(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/zz\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(script, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	want := PinCheck{State: PinModified, Changed: []string{"run.sh (changed)"}}
	if diff := cmp.Diff(want, CheckPin(base, p)); diff != "" {
		t.Errorf("rewritten in place (-want +got):\n%s", diff)
	}
}

// benchPlugin is a typical plugin: a manifest, a script, 20 modules,
// 200 KiB, pinned.
func benchPlugin(b *testing.B) (string, *Plugin) {
	base := b.TempDir()
	dir := filepath.Join(base, "plugins", "p")
	for i := 0; i < 20; i++ {
		path := filepath.Join(dir, "lib", strings.Repeat("m", i+1)+".py")
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, make([]byte, 10<<10), 0o644)
	}
	p := &Plugin{ID: "p", Dir: dir, Scope: ScopeUser}
	if _, err := Pin(base, p, "install", PinSource{Kind: "dir"}); err != nil {
		b.Fatal(err)
	}
	return base, p
}

// BenchmarkDigest is the first check of a plugin in a process: every
// file read and hashed.
func BenchmarkDigest(b *testing.B) {
	_, p := benchPlugin(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Digest(p.Dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckPin is a later check in the same process (the memo's
// fingerprint walk and the record read).
func BenchmarkCheckPin(b *testing.B) {
	base, p := benchPlugin(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := CheckPin(base, p); c.State != PinPinned {
			b.Fatal(c)
		}
	}
}
