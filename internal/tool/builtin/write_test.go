package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"old.txt": "old content\n", "sub/keep": ""})
	if err := os.Chmod(filepath.Join(dir, "old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	write := tools(t, Options{WorkDir: dir})["write"]
	for _, tc := range []struct {
		name     string
		input    map[string]any
		want     tool.Result
		file     string // checked when non-empty
		content  string
		wantMode os.FileMode
	}{
		{"new file in new dirs", map[string]any{"path": "a/b/c.txt", "content": "hello\n"},
			tool.Result{Output: "created a/b/c.txt (6 bytes written)"}, "a/b/c.txt", "hello\n", 0o644},
		{"overwrite keeps mode", map[string]any{"path": "old.txt", "content": "new"},
			tool.Result{Output: "overwrote old.txt (3 bytes written)"}, "old.txt", "new", 0o600},
		{"empty content", map[string]any{"path": "empty.txt", "content": ""},
			tool.Result{Output: "created empty.txt (0 bytes written)"}, "empty.txt", "", 0o644},
		{"absolute path", map[string]any{"path": filepath.Join(dir, "abs.txt"), "content": "é"},
			tool.Result{Output: "created " + filepath.Join(dir, "abs.txt") + " (2 bytes written)"}, "abs.txt", "é", 0o644},
		{"directory refused", map[string]any{"path": "sub", "content": "x"},
			tool.Result{IsError: true, Output: "sub is a directory; give the path of a file inside it"}, "", "", 0},
		{"content required", map[string]any{"path": "x.txt"},
			tool.Result{IsError: true, Output: `content is required (use "" for an empty file)`}, "", "", 0},
		{"path required", map[string]any{"content": "x"},
			tool.Result{IsError: true, Output: "path is required"}, "", "", 0},
		{"parent is a file", map[string]any{"path": "old.txt/x", "content": "x"},
			tool.Result{IsError: true, Output: "old.txt/x: not a directory"}, "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, write, mustJSON(t, tc.input))
			if d := cmp.Diff(tc.want, got, ignoreDiff); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
			if tc.file == "" {
				return
			}
			p := filepath.Join(dir, tc.file)
			data, err := os.ReadFile(p)
			if err != nil || string(data) != tc.content {
				t.Fatalf("file = %q, %v; want %q", data, err, tc.content)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != tc.wantMode {
				t.Fatalf("mode = %v, want %v", fi.Mode().Perm(), tc.wantMode)
			}
		})
	}
	// No temporary files are left behind.
	for _, d := range []string{dir, filepath.Join(dir, "a", "b")} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if filepath.Ext(e.Name()) != ".txt" && e.Name() != "a" && e.Name() != "sub" {
				t.Errorf("stray file %s in %s", e.Name(), d)
			}
		}
	}
}

func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"real.txt": "old"})
	if err := os.Symlink("real.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	write := tools(t, Options{WorkDir: dir})["write"]
	if res := run(t, write, `{"path":"link.txt","content":"new"}`); res.IsError {
		t.Fatal(res.Output)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "real.txt")); string(data) != "new" {
		t.Fatalf("target = %q", data)
	}
}
