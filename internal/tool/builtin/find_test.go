package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, ignoreTree)
	find := tools(t, Options{WorkDir: dir})["find"]
	for _, tc := range []struct {
		name  string
		input map[string]any
		want  tool.Result
	}{
		{"recursive", map[string]any{"pattern": "**/*.go"}, tool.Result{Output: "a.go\nsub/c.go\nsub/deep/d.go\n"}},
		{"top level only", map[string]any{"pattern": "*.log"}, tool.Result{Output: "keep.log\n"}},
		{"negations", map[string]any{"pattern": "**/*.log"}, tool.Result{Output: "keep.log\nsub/important.log\n"}},
		{"anchored root pattern", map[string]any{"pattern": "**/top-only.txt"}, tool.Result{Output: "sub/top-only.txt\n"}},
		{"directories marked", map[string]any{"pattern": "sub/*"}, tool.Result{Output: "sub/.gitignore\nsub/c.go\nsub/deep/\nsub/important.log\nsub/top-only.txt\n"}},
		{"everything", map[string]any{"pattern": "**"}, tool.Result{Output: ".gitignore\na.go\nb.txt\nbin.dat\nkeep.log\nsub/\nsub/.gitignore\nsub/c.go\nsub/deep/\nsub/deep/d.go\nsub/important.log\nsub/top-only.txt\n"}},
		{"alternatives", map[string]any{"pattern": "**/{a,d}.go"}, tool.Result{Output: "a.go\nsub/deep/d.go\n"}},
		{"leading ./", map[string]any{"pattern": "./sub/deep/*"}, tool.Result{Output: "sub/deep/d.go\n"}},
		{"under path", map[string]any{"pattern": "**/*.go", "path": "sub"}, tool.Result{Output: "c.go\ndeep/d.go\n"}},
		{"absolute path", map[string]any{"pattern": "*.go", "path": filepath.Join(dir, "sub", "deep")}, tool.Result{Output: "d.go\n"}},
		{"no match", map[string]any{"pattern": "**/*.rs"}, tool.Result{Output: `no paths match "**/*.rs" in .`}},
		{"invalid pattern", map[string]any{"pattern": "[a"}, tool.Result{IsError: true, Output: `invalid glob pattern "[a"`}},
		{"absolute pattern", map[string]any{"pattern": "/etc/*"}, tool.Result{IsError: true, Output: "pattern is matched against paths relative to the search directory: " +
			"pass the directory as path and a relative pattern such as \"**/*.go\""}},
		{"missing path", map[string]any{"pattern": "*", "path": "nope"}, tool.Result{IsError: true, Output: "nope: no such file or directory"}},
		{"path is a file", map[string]any{"pattern": "*", "path": "a.go"}, tool.Result{IsError: true, Output: "a.go is not a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, find, mustJSON(t, tc.input))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestFindCap(t *testing.T) {
	if findMaxResults != 1000 {
		t.Fatalf("findMaxResults = %d", findMaxResults)
	}
	dir := t.TempDir()
	for i := range 7 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	find := tools(t, Options{WorkDir: dir})["find"].(*findTool)
	find.max = 5 // creating 1000 files costs a second on these machines
	got := run(t, find, `{"pattern":"*.txt"}`)
	want := "f0.txt\nf1.txt\nf2.txt\nf3.txt\nf4.txt\n… and 2 more (5 of 7 listed); narrow the pattern or path"
	if d := cmp.Diff(tool.Result{Output: want}, got); d != "" {
		t.Fatal(d)
	}

	find = tools(t, Options{WorkDir: dir, MaxOutput: 16})["find"].(*findTool)
	got = run(t, find, `{"pattern":"*.txt"}`)
	want = "f0.txt\nf1.txt\n… and 5 more (2 of 7 listed); narrow the pattern or path"
	if d := cmp.Diff(tool.Result{Output: want}, got); d != "" {
		t.Fatal(d)
	}
}
