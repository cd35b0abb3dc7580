package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/synaps-cli/synaps/internal/tool"
)

// ignoreDiff leaves a result's Diff to TestEditAndWriteShowADiff and its
// Before to TestEditAndWriteKeepBefore: the other tests are about what the
// model gets.
var ignoreDiff = cmpopts.IgnoreFields(tool.Result{}, "Diff", "Before")

// diffLines renders a Diff's lines as "OLD NEW KIND TEXT".
func diffLines(d *tool.Diff) []string {
	if d == nil {
		return nil
	}
	var out []string
	for _, l := range d.Lines {
		out = append(out, fmt.Sprintf("%d %d %s %s", l.Old, l.New, l.Kind, l.Text))
	}
	return out
}

// edit and write carry what they changed as a Diff for the UI, while the
// model's result stays the short line it was.
func TestEditAndWriteShowADiff(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "keep\nold\n", "bin": "a\x00b"})
	ts := tools(t, Options{WorkDir: dir})
	for _, tc := range []struct {
		name, tool, input string
		output            string
		lines             []string
		created           bool
	}{
		{"edit one line", "edit", `{"path":"a.txt","old_string":"two","new_string":"2"}`,
			"edited a.txt: replaced 1 occurrence (line 2)",
			[]string{"1 1   one", "2 0 - two", "0 2 + 2", "3 3   three"}, false},
		{"write over a file", "write", `{"path":"b.txt","content":"keep\nnew\nmore\n"}`,
			"overwrote b.txt (14 bytes written)",
			[]string{"1 1   keep", "2 0 - old", "0 2 + new", "0 3 + more"}, false},
		{"write a new file", "write", `{"path":"c.txt","content":"first\nsecond\n"}`,
			"created c.txt (13 bytes written)",
			[]string{"0 1 + first", "0 2 + second"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, ts[tc.tool], tc.input)
			if got.IsError || got.Output != tc.output {
				t.Fatalf("result %+v; want output %q", got, tc.output)
			}
			if got.Diff == nil {
				t.Fatal("no diff")
			}
			if got.Diff.Created != tc.created || got.Diff.Path != filepath.Base(got.Diff.Path) {
				t.Errorf("diff %+v", got.Diff)
			}
			if d := cmp.Diff(tc.lines, diffLines(got.Diff)); d != "" {
				t.Errorf("diff lines (-want +got):\n%s", d)
			}
		})
	}
	// Over a binary file there is no line diff to show.
	if got := run(t, ts["write"], `{"path":"bin","content":"text\n"}`); got.Diff != nil {
		t.Errorf("write over a binary file: diff %+v", got.Diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.txt")); err != nil {
		t.Fatal(err)
	}
}

// edit and write hand hooks the file's text before the call (Result.Before,
// a Claude PostToolUse hook's originalFile); a new file has none.
func TestEditAndWriteKeepBefore(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "keep\n"})
	ts := tools(t, Options{WorkDir: dir})
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name, tool, input string
		want              *string
	}{
		{"edit", "edit", `{"path":"a.txt","old_string":"two","new_string":"2"}`, str("one\ntwo\n")},
		{"overwrite", "write", `{"path":"b.txt","content":"new\n"}`, str("keep\n")},
		{"create", "write", `{"path":"c.txt","content":"fresh\n"}`, nil},
		{"failed edit", "edit", `{"path":"a.txt","old_string":"absent","new_string":"x"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, ts[tc.tool], tc.input)
			if d := cmp.Diff(tc.want, got.Before); d != "" {
				t.Errorf("Before (-want +got):\n%s", d)
			}
		})
	}
}
