package treesum

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/safefile/fifotest"
)

// TestTree: the entries name each file's mode and sum, each directory
// and link; skipped names are left out; the digest moves with every
// kind of change.
func TestTree(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.py"), "hi\n")
	writeFile(t, filepath.Join(dir, "__pycache__", "main.pyc"), "x")
	writeFile(t, filepath.Join(dir, ".git", "HEAD"), "x")
	if err := os.Symlink("main.py", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	d1, files, err := Tree(dir, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		// sha256 of "hi\n"
		"main.py": "f644 98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4",
		"link":    "l777 -> main.py",
	}
	if d := cmp.Diff(want, files); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	writeFile(t, filepath.Join(dir, "__pycache__", "main.pyc"), "changed")
	if d, _, _ := Tree(dir, Limits{}); d != d1 {
		t.Error("a skipped file changed the digest")
	}
	os.Chmod(filepath.Join(dir, "main.py"), 0o755)
	d2, _, _ := Tree(dir, Limits{})
	if d2 == d1 {
		t.Error("a mode change left the digest")
	}
	if _, _, err := Tree(dir, Limits{MaxEntries: 1}); err == nil || !strings.Contains(err.Error(), "too many to measure") {
		t.Errorf("past MaxEntries: %v", err)
	}
	if _, _, err := Tree(dir, Limits{MaxBytes: 2}); err == nil || !strings.Contains(err.Error(), "too much to measure") {
		t.Errorf("past MaxBytes: %v", err)
	}
	if err := fifotest.Make(filepath.Join(dir, "pipe")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := Digest(dir); err == nil || !strings.Contains(err.Error(), "not a file, directory or symlink") {
		t.Errorf("a tree with a FIFO: %v, want it refused (not opened)", err)
	}
}

// TestTreeSeesInPlaceRewrite: a file written in the last moments is not
// remembered (it could be written again within the same change-time
// tick, with its size and modification time put back), and a remembered
// sum serves only a file whose identity, size and times are as they were.
func TestTreeSeesInPlaceRewrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	writeFile(t, path, "aaaa")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	info, _ := os.Stat(path)
	s1, err := fileSum(path, info)
	if err != nil {
		t.Fatal(err)
	}
	sums.Lock()
	_, remembered := sums.m[path]
	sums.Unlock()
	if remembered {
		t.Error("the sum of a file changed a moment ago was remembered")
	}
	// As if remembered long ago, at another change time.
	sums.Lock()
	sums.m[path] = cachedSum{key: "0 0 0.0 4 0", sum: s1}
	sums.Unlock()
	writeFile(t, path, "bbbb")
	os.Chtimes(path, old, old)
	info2, _ := os.Stat(path)
	if s2, err := fileSum(path, info2); err != nil || s2 == s1 {
		t.Errorf("an in-place rewrite with size and times put back gave %s, %v; want a new sum", s2, err)
	}
}
