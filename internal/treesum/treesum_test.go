package treesum

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFingerprint: an edit, an added file or a mode change moves the
// fingerprint; what lands in a skipped directory does not.
func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ext.py"), "print(1)\n")
	fp := func() string {
		t.Helper()
		s, err := Fingerprint(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := fp()
	if again := fp(); again != first {
		t.Fatalf("fingerprint not stable: %s then %s", first, again)
	}
	writeFile(t, filepath.Join(dir, "__pycache__", "ext.cpython-312.pyc"), "x")
	writeFile(t, filepath.Join(dir, ".git", "HEAD"), "ref")
	writeFile(t, filepath.Join(dir, "sub", ".DS_Store"), "x")
	withSub := fp() // sub/ itself is a new entry
	writeFile(t, filepath.Join(dir, "sub", ".DS_Store"), "xy")
	writeFile(t, filepath.Join(dir, "__pycache__", "ext.cpython-312.pyc"), "xyz")
	if got := fp(); got != withSub {
		t.Errorf("a skipped entry changed the fingerprint")
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"edit", func() { writeFile(t, filepath.Join(dir, "ext.py"), "print(2)\n") }},
		{"add", func() { writeFile(t, filepath.Join(dir, "lib.py"), "") }},
		{"chmod", func() { os.Chmod(filepath.Join(dir, "lib.py"), 0o755) }},
		{"remove", func() { os.Remove(filepath.Join(dir, "lib.py")) }},
	}
	prev := withSub
	for _, s := range steps {
		s.do()
		if got := fp(); got == prev {
			t.Errorf("%s did not change the fingerprint", s.name)
		} else {
			prev = got
		}
	}
	if _, err := Fingerprint(dir, 2); err == nil {
		t.Error("a tree over the entry bound was fingerprinted")
	}
	if _, err := Fingerprint(filepath.Join(dir, "missing"), 0); err == nil {
		t.Error("a missing root was fingerprinted")
	}
}
