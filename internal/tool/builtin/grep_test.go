package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

// ignoreTree is a small git work tree exercising .gitignore rules: a root
// file with a negation, a directory pattern, and a nested .gitignore that
// ignores a file of its own and re-includes one the root ignores.
var ignoreTree = map[string]string{
	".git/config":       "hello git\n",
	".gitignore":        "# comment\n*.log\nbuild/\n!keep.log\n/top-only.txt\n",
	"a.go":              "package a\n\nfunc Hello() {}\n",
	"b.txt":             "hello world\nHELLO\nsay hello again\n",
	"bin.dat":           "hello\x00binary",
	"build/out.go":      "hello build\n",
	"debug.log":         "hello log\n",
	"keep.log":          "hello kept\n",
	"top-only.txt":      "hello top\n",
	"sub/.gitignore":    "secret.txt\n!important.log\n",
	"sub/c.go":          "// hello c\n",
	"sub/deep/d.go":     "hello d\n",
	"sub/important.log": "hello important\n",
	"sub/secret.txt":    "hello secret\n",
	"sub/top-only.txt":  "hello nested top-only\n",
}

func TestGrep(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, ignoreTree)
	grep := tools(t, Options{WorkDir: dir})["grep"]
	for _, tc := range []struct {
		name  string
		input map[string]any
		want  tool.Result
	}{
		{"gitignore aware, sorted", map[string]any{"pattern": "hello"}, tool.Result{Output: `b.txt:1:hello world
b.txt:3:say hello again
keep.log:1:hello kept
sub/c.go:1:// hello c
sub/deep/d.go:1:hello d
sub/important.log:1:hello important
sub/top-only.txt:1:hello nested top-only
`}},
		{"ignore_case", map[string]any{"pattern": "hello w|^hello$|func hello", "ignore_case": true}, tool.Result{Output: `a.go:3:func Hello() {}
b.txt:1:hello world
b.txt:2:HELLO
`}},
		{"anchors are per line", map[string]any{"pattern": "^hello"}, tool.Result{Output: `b.txt:1:hello world
keep.log:1:hello kept
sub/deep/d.go:1:hello d
sub/important.log:1:hello important
sub/top-only.txt:1:hello nested top-only
`}},
		{"glob on the name", map[string]any{"pattern": "hello", "glob": "*.go"}, tool.Result{Output: "sub/c.go:1:// hello c\nsub/deep/d.go:1:hello d\n"}},
		{"glob on the path", map[string]any{"pattern": "hello", "glob": "sub/*/*.go"}, tool.Result{Output: "sub/deep/d.go:1:hello d\n"}},
		{"path is a subdirectory", map[string]any{"pattern": "hello", "path": "sub"}, tool.Result{Output: `c.go:1:// hello c
deep/d.go:1:hello d
important.log:1:hello important
top-only.txt:1:hello nested top-only
`}},
		{"path inside an ignored directory", map[string]any{"pattern": "hello", "path": "build"}, tool.Result{Output: "out.go:1:hello build\n"}},
		{"path is a file", map[string]any{"pattern": "again", "path": "b.txt"}, tool.Result{Output: "b.txt:3:say hello again\n"}},
		{"ignored file named explicitly", map[string]any{"pattern": "hello", "path": "debug.log"}, tool.Result{Output: "debug.log:1:hello log\n"}},
		{"max_matches", map[string]any{"pattern": "hello", "max_matches": 2}, tool.Result{Output: "b.txt:1:hello world\nb.txt:3:say hello again\n" +
			"[stopped after 2 matches; more exist: narrow the pattern, path or glob, or raise max_matches]"}},
		{"exactly max_matches", map[string]any{"pattern": "kept", "max_matches": 1}, tool.Result{Output: "keep.log:1:hello kept\n"}},
		{"no match", map[string]any{"pattern": "goodbye"}, tool.Result{Output: `no matches for "goodbye" in .`}},
		{"invalid regexp", map[string]any{"pattern": "func("}, tool.Result{IsError: true, Output: "invalid regular expression: error parsing regexp: missing closing ): `func(` " +
			"(Go RE2 syntax: lookaround and backreferences are not supported; escape literal ( ) [ ] { } . * + ? | ^ $ \\ with a backslash)"}},
		{"invalid glob", map[string]any{"pattern": "x", "glob": "[a"}, tool.Result{IsError: true, Output: `invalid glob "[a"`}},
		{"missing path", map[string]any{"pattern": "x", "path": "nope"}, tool.Result{IsError: true, Output: "nope: no such file or directory"}},
		{"pattern required", map[string]any{}, tool.Result{IsError: true, Output: "pattern is required"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, grep, mustJSON(t, tc.input))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestGrepSkipsLargeFilesAndCutsLines(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"big.txt":  strings.Repeat("needle\n", 800_000), // 5.6 MB
		"long.txt": "needle " + strings.Repeat("z", 600) + "\n",
	})
	got := run(t, tools(t, Options{WorkDir: dir})["grep"], `{"pattern":"needle"}`)
	want := "long.txt:1:needle " + strings.Repeat("z", 493) + "… [107 more bytes]\n[skipped 1 file over 5.0 MiB: search them with bash]"
	if d := cmp.Diff(tool.Result{Output: want}, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestGrepOutputCap(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f.txt": strings.Repeat("match me\n", 100)})
	got := run(t, tools(t, Options{WorkDir: dir, MaxOutput: 60})["grep"], `{"pattern":"match"}`)
	want := "f.txt:1:match me\nf.txt:2:match me\nf.txt:3:match me\n[output limit reached after 3 matches; narrow the pattern, path or glob]"
	if d := cmp.Diff(tool.Result{Output: want}, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestGrepWithoutGitRepo(t *testing.T) {
	// .gitignore files apply even outside a git work tree.
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".gitignore": "gen/\n", "gen/x.go": "hit\n", "y.go": "hit\n"})
	got := run(t, tools(t, Options{WorkDir: dir})["grep"], `{"pattern":"hit"}`)
	if d := cmp.Diff(tool.Result{Output: "y.go:1:hit\n"}, got); d != "" {
		t.Fatal(d)
	}
}

// smallTree writes a tree like a small Go module: 8 packages of 10 files.
func smallTree(tb testing.TB) string {
	dir := tb.TempDir()
	files := map[string]string{".gitignore": "vendor/\n*.tmp\n", "vendor/x/x.go": "func Ignored() {}\n"}
	var src strings.Builder
	for i := range 200 {
		fmt.Fprintf(&src, "// line %d of some Go source with a func call foo(%d)\n", i, i)
	}
	for p := range 8 {
		for f := range 10 {
			files[fmt.Sprintf("pkg%d/file%d.go", p, f)] = src.String() + fmt.Sprintf("func Target%d%d() {}\n", p, f)
		}
	}
	writeTree(tb, dir, files)
	return dir
}

func BenchmarkGrepSmallTree(b *testing.B) {
	dir := smallTree(b)
	grep := tools(b, Options{WorkDir: dir})["grep"]
	in := json.RawMessage(`{"pattern":"func Target[0-9]+","glob":"*.go"}`)
	for b.Loop() {
		res, err := grep.Run(context.Background(), in)
		if err != nil || strings.Count(res.Output, "\n") != 80 {
			b.Fatal(res.Output, err)
		}
	}
}

func TestSmallTreeSanity(t *testing.T) {
	dir := smallTree(t)
	res := run(t, tools(t, Options{WorkDir: dir})["grep"], `{"pattern":"func (Target|Ignored)","glob":"*.go"}`)
	if n := strings.Count(res.Output, "\n"); n != 80 || strings.Contains(res.Output, "vendor") {
		t.Fatalf("%d lines:\n%s", n, res.Output)
	}
	if _, err := os.Stat(filepath.Join(dir, "vendor", "x", "x.go")); err != nil {
		t.Fatal(err)
	}
}
