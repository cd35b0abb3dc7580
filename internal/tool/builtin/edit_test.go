package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

const goSource = `package main

func main() {
	x := 1
	if x > 0 {
		x := 1
		println(x)
	}
	x := 1
}
`

func TestEdit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  string // initial content of f.go
		input map[string]any
		want  tool.Result
		after string // f.go afterwards; "" means unchanged
	}{
		{"unique",
			goSource, map[string]any{"path": "f.go", "old_string": "println(x)", "new_string": "println(x + 1)"},
			tool.Result{Output: "edited f.go: replaced 1 occurrence (line 7)"},
			"package main\n\nfunc main() {\n\tx := 1\n\tif x > 0 {\n\t\tx := 1\n\t\tprintln(x + 1)\n\t}\n\tx := 1\n}\n"},
		{"multi-line",
			goSource, map[string]any{"path": "f.go", "old_string": "\t}\n\tx := 1\n}", "new_string": "\t}\n}"},
			tool.Result{Output: "edited f.go: replaced 1 occurrence (line 8)"},
			"package main\n\nfunc main() {\n\tx := 1\n\tif x > 0 {\n\t\tx := 1\n\t\tprintln(x)\n\t}\n}\n"},
		{"ambiguous",
			goSource, map[string]any{"path": "f.go", "old_string": "x := 1", "new_string": "x := 2"},
			tool.Result{IsError: true, Output: "old_string occurs 3 times in f.go (lines 4, 6, 9); include more surrounding lines to make it unique, " +
				"or set replace_all to true to replace every occurrence"}, ""},
		{"replace_all",
			goSource, map[string]any{"path": "f.go", "old_string": "x := 1", "new_string": "x := 2", "replace_all": true},
			tool.Result{Output: "edited f.go: replaced 3 occurrences (lines 4, 6, 9)"},
			"package main\n\nfunc main() {\n\tx := 2\n\tif x > 0 {\n\t\tx := 2\n\t\tprintln(x)\n\t}\n\tx := 2\n}\n"},
		{"two matches on one line",
			"a a\nb\n", map[string]any{"path": "f.go", "old_string": "a", "new_string": "c"},
			tool.Result{IsError: true, Output: "old_string occurs 2 times in f.go (line 1); include more surrounding lines to make it unique, " +
				"or set replace_all to true to replace every occurrence"}, ""},
		{"delete",
			"keep\ndrop\n", map[string]any{"path": "f.go", "old_string": "drop\n", "new_string": ""},
			tool.Result{Output: "edited f.go: replaced 1 occurrence (line 2)"}, "keep\n"},
		{"no match",
			goSource, map[string]any{"path": "f.go", "old_string": "fmt.Println", "new_string": "println"},
			tool.Result{IsError: true, Output: "old_string was not found in f.go. Read the file first and copy the exact text, " +
				"including whitespace and indentation (without read's line-number prefixes)."}, ""},
		{"whitespace-normalised match",
			goSource, map[string]any{"path": "f.go", "old_string": "    if x > 0 {\n        x := 1", "new_string": "if x > 1 {"},
			tool.Result{IsError: true, Output: "old_string was not found in f.go exactly, but text matching it when whitespace is ignored " +
				"starts at line 5: the indentation, spacing or line breaks differ. Read the file (offset=3) and copy the text exactly."}, ""},
		{"CRLF file",
			"one\r\ntwo\r\nthree\r\n", map[string]any{"path": "f.go", "old_string": "one\ntwo\n", "new_string": "1\n2\n"},
			tool.Result{Output: "edited f.go: replaced 1 occurrence (line 1)"}, "1\r\n2\r\nthree\r\n"},
		{"identical strings",
			goSource, map[string]any{"path": "f.go", "old_string": "x", "new_string": "x"},
			tool.Result{IsError: true, Output: "old_string and new_string are identical; there is nothing to change"}, ""},
		{"empty old_string",
			goSource, map[string]any{"path": "f.go", "old_string": "", "new_string": "x"},
			tool.Result{IsError: true, Output: "old_string is required and must not be empty; to create a file or replace all of it, use write"}, ""},
		{"new_string missing",
			goSource, map[string]any{"path": "f.go", "old_string": "x"},
			tool.Result{IsError: true, Output: `new_string is required (use "" to delete old_string)`}, ""},
		{"missing file",
			goSource, map[string]any{"path": "nope.go", "old_string": "a", "new_string": "b"},
			tool.Result{IsError: true, Output: "nope.go: no such file; to create a file, use write"}, ""},
		{"binary file",
			"a\x00b", map[string]any{"path": "f.go", "old_string": "a", "new_string": "b"},
			tool.Result{IsError: true, Output: "f.go looks like a binary file (it contains NUL bytes); edit only changes text files"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.go")
			if err := os.WriteFile(p, []byte(tc.file), 0o640); err != nil {
				t.Fatal(err)
			}
			got := run(t, tools(t, Options{WorkDir: dir})["edit"], mustJSON(t, tc.input))
			if d := cmp.Diff(tc.want, got, ignoreDiff); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			want := tc.after
			if want == "" {
				want = tc.file
			}
			data, _ := os.ReadFile(p)
			if d := cmp.Diff(want, string(data)); d != "" {
				t.Errorf("file (-want +got):\n%s", d)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
			}
		})
	}
}

func TestEditDirectory(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	res := run(t, tools(t, Options{WorkDir: dir})["edit"], `{"path":"d","old_string":"a","new_string":"b"}`)
	if d := cmp.Diff(tool.Result{IsError: true, Output: "d is a directory, not a file"}, res); d != "" {
		t.Fatal(d)
	}
}

func TestLooseMatch(t *testing.T) {
	for _, tc := range []struct {
		s, sub string
		line   int
		ok     bool
	}{
		{"a\nb  c\nd", "b c", 2, true},
		{"a\n\tb\n\tc\n", "b\n    c", 2, true},
		{"x y z", "  y   z  ", 1, true},
		{"abc", "abd", 0, false},
		{"abc", "   ", 0, false},
	} {
		line, ok := looseMatch(tc.s, tc.sub)
		if line != tc.line || ok != tc.ok {
			t.Errorf("looseMatch(%q, %q) = %d, %v; want %d, %v", tc.s, tc.sub, line, ok, tc.line, tc.ok)
		}
	}
}
