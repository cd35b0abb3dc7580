package builtin

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lineFiles is an editor that answers line ranges of the files on disk
// and records what it was asked.
type lineFiles struct{ asked [][2]int }

func (f *lineFiles) ReadText(context.Context, string) (string, error) {
	return "", errors.New("read asked the editor for a whole file")
}
func (f *lineFiles) WriteText(context.Context, string, string) error { return nil }
func (f *lineFiles) ReadLines(_ context.Context, p string, line, limit int) (string, error) {
	f.asked = append(f.asked, [2]int{line, limit})
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	all := strings.SplitAfter(string(b), "\n")
	from := min(line-1, len(all))
	return strings.Join(all[from:min(from+limit, len(all))], ""), nil
}

// Through an editor, read asks for the lines it shows and one more, no
// more than the output cap can hold; lines the disk says are over
// editorReadMax are read from disk, and the output says so.
func TestReadAsksTheEditorForLines(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("y", editorReadMax+10)
	writeTree(t, dir, map[string]string{
		"abc.txt":  "a\nb\nc\n",
		"huge.txt": "first\n" + huge + "\nthird\n",
	})
	for _, tc := range []struct {
		input string
		asked [][2]int
		out   string
	}{
		{`{"path":"abc.txt"}`, [][2]int{{1, 2001}}, "     1\ta\n     2\tb\n     3\tc\n"},
		{`{"path":"abc.txt","offset":2,"limit":1}`, [][2]int{{2, 2}}, "     2\tb\n… the file continues; use offset=3 to read on"},
		{`{"path":"abc.txt","offset":3,"limit":5}`, [][2]int{{3, 6}}, "     3\tc\n"},
		{`{"path":"abc.txt","offset":9}`, [][2]int{{9, 2001}}, "offset 9 is past the end of abc.txt"},
		{`{"path":"huge.txt","offset":3,"limit":1}`, [][2]int{{3, 2}}, "     3\tthird\n"},
		{`{"path":"huge.txt","offset":2,"limit":1}`, nil, "[lines 2 to 3 are 4.0 MiB on disk, more than synaps asks the editor for at once (4.0 MiB): read from the disk, without unsaved changes in the editor]\n" +
			"     2\t" + huge[:readMaxLineLen] + "… [line cut: 4192314 more bytes]\n… 1 more line; use offset=3 to read on"},
	} {
		f := &lineFiles{}
		rd := &readTool{Options{WorkDir: dir, Files: f}.withDefaults()}
		res := run(t, rd, tc.input)
		if diff := cmp.Diff(tc.asked, f.asked); diff != "" {
			t.Errorf("%s: asked (-want +got):\n%s", tc.input, diff)
		}
		if diff := cmp.Diff(tc.out, res.Output); diff != "" {
			t.Errorf("%s: output (-want +got):\n%s", tc.input, diff)
		}
	}
}
