package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

func TestLS(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"b.txt":        strings.Repeat("x", 1536),
		"a.go":         "package a\n",
		".hidden":      "",
		"zdir/x":       "",
		".config/y":    "",
		"empty/.keep":  "",
		"sub/deep/f.c": "int x;\n",
	})
	os.Remove(filepath.Join(dir, "empty", ".keep"))
	os.Symlink("a.go", filepath.Join(dir, "link"))
	os.Symlink("zdir", filepath.Join(dir, "dlink"))
	ls := tools(t, Options{WorkDir: dir})["ls"]
	for _, tc := range []struct {
		name  string
		input string
		want  tool.Result
	}{
		{"working directory", `{}`, tool.Result{Output: ".config/\ndlink/ -> zdir\nempty/\nsub/\nzdir/\n.hidden (0 B)\na.go (10 B)\nb.txt (1.5 KiB)\nlink -> a.go\n"}},
		{"relative path", `{"path":"sub"}`, tool.Result{Output: "deep/\n"}},
		{"absolute path", fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "sub", "deep")), tool.Result{Output: "f.c (7 B)\n"}},
		{"empty directory", `{"path":"empty"}`, tool.Result{Output: "(empty directory)"}},
		{"file", `{"path":"a.go"}`, tool.Result{Output: "a.go (10 B)\n"}},
		{"missing", `{"path":"nope"}`, tool.Result{IsError: true, Output: "nope: no such file or directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, ls, tc.input)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestLSCap(t *testing.T) {
	if lsMaxEntries != 1000 {
		t.Fatalf("lsMaxEntries = %d", lsMaxEntries)
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"d/x": "", "a": "", "b": "", "c": ""})
	ls := tools(t, Options{WorkDir: dir})["ls"].(*lsTool)
	ls.max = 2
	got := run(t, ls, `{}`)
	want := "d/\na (0 B)\n… and 2 more entries (2 of 4 listed); use find or bash to narrow the listing"
	if d := cmp.Diff(tool.Result{Output: want}, got); d != "" {
		t.Fatal(d)
	}
}
