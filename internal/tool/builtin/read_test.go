package builtin

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/safefile/fifotest"
	"github.com/synaps-cli/synaps/internal/tool"
)

// numbered renders lines first..last of "line N" text the way read does.
func numbered(first, last int) string {
	var b strings.Builder
	for i := first; i <= last; i++ {
		fmt.Fprintf(&b, "%6d\tline %d\n", i, i)
	}
	return b.String()
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	var lines2500 strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&lines2500, "line %d\n", i)
	}
	long := strings.Repeat("x", 2500)
	writeTree(t, dir, map[string]string{
		"abc.txt":    "a\nb\nc\n",
		"nonl.txt":   "a\nb",
		"crlf.txt":   "a\r\nb\r\n",
		"blank.txt":  "\n\nx\n",
		"empty.txt":  "",
		"long.txt":   "short\n" + long + "\n",
		"2500.txt":   lines2500.String(),
		"bin.dat":    "ELF\x00\x01\x02",
		"sub/x.txt":  "x\n",
		"utf8.txt":   strings.Repeat("é", 1500) + "\n",
		"twelve.txt": numberedSource(12),
	})
	if err := fifotest.Make(filepath.Join(dir, "fifo")); err != nil {
		t.Fatal(err)
	}
	read := tools(t, Options{WorkDir: dir, MaxOutput: 1 << 20})["read"] // the cap has its own test
	for _, tc := range []struct {
		name  string
		input map[string]any
		want  tool.Result
	}{
		{"numbered", map[string]any{"path": "abc.txt"}, tool.Result{Output: "     1\ta\n     2\tb\n     3\tc\n"}},
		{"absolute path", map[string]any{"path": filepath.Join(dir, "abc.txt"), "limit": 1}, tool.Result{Output: "     1\ta\n… 2 more lines; use offset=2 to read on"}},
		{"no final newline", map[string]any{"path": "nonl.txt"}, tool.Result{Output: "     1\ta\n     2\tb\n"}},
		{"CRLF", map[string]any{"path": "crlf.txt"}, tool.Result{Output: "     1\ta\n     2\tb\n"}},
		{"blank lines", map[string]any{"path": "blank.txt"}, tool.Result{Output: "     1\t\n     2\t\n     3\tx\n"}},
		{"empty file", map[string]any{"path": "empty.txt"}, tool.Result{Output: "(empty file)"}},
		{"offset and limit", map[string]any{"path": "twelve.txt", "offset": 3, "limit": 2}, tool.Result{Output: numbered(3, 4) + "… 8 more lines; use offset=5 to read on"}},
		{"one more line", map[string]any{"path": "twelve.txt", "limit": 11}, tool.Result{Output: numbered(1, 11) + "… 1 more line; use offset=12 to read on"}},
		{"offset to the end", map[string]any{"path": "twelve.txt", "offset": 11}, tool.Result{Output: numbered(11, 12)}},
		{"limit reaches the end exactly", map[string]any{"path": "twelve.txt", "offset": 11, "limit": 2}, tool.Result{Output: numbered(11, 12)}},
		{"default limit 2000", map[string]any{"path": "2500.txt"}, tool.Result{Output: numbered(1, 2000) + "… 500 more lines; use offset=2001 to read on"}},
		{"long line cut", map[string]any{"path": "long.txt"}, tool.Result{Output: "     1\tshort\n     2\t" + long[:2000] + "… [line cut: 500 more bytes]\n"}},
		{"long line cut on a rune boundary", map[string]any{"path": "utf8.txt"}, tool.Result{Output: "     1\t" + strings.Repeat("é", 1000) + "… [line cut: 1000 more bytes]\n"}},
		{"offset past the end", map[string]any{"path": "abc.txt", "offset": 10}, tool.Result{IsError: true, Output: "offset 10 is past the end of abc.txt, which has 3 lines"}},
		{"not found", map[string]any{"path": "nope.txt"}, tool.Result{IsError: true, Output: "nope.txt: no such file or directory"}},
		{"directory", map[string]any{"path": "sub"}, tool.Result{IsError: true, Output: "sub is a directory, not a file; use ls to list it"}},
		{"binary", map[string]any{"path": "bin.dat"}, tool.Result{IsError: true, Output: "bin.dat looks like a binary file (it contains NUL bytes); inspect it with bash, e.g. `file bin.dat` or `xxd bin.dat | head`"}},
		{"offset 0", map[string]any{"path": "abc.txt", "offset": 0}, tool.Result{IsError: true, Output: "offset must be a whole number ≥ 1 (the first line is 1)"}},
		{"fractional limit", map[string]any{"path": "abc.txt", "limit": 1.5}, tool.Result{IsError: true, Output: "limit must be a whole number ≥ 1"}},
		{"path required", map[string]any{}, tool.Result{IsError: true, Output: "path is required"}},
		{"FIFO", map[string]any{"path": "fifo"}, tool.Result{IsError: true, Output: "fifo is not a regular file; use bash to read it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, read, mustJSON(t, tc.input))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// numberedSource is n lines of "line N".
func numberedSource(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadOutputCap(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f.txt": numberedSource(20)})
	read := tools(t, Options{WorkDir: dir, MaxOutput: 50})["read"]
	// Each numbered line is 14-15 bytes: three fit in 50.
	got := run(t, read, `{"path":"f.txt"}`)
	want := numbered(1, 3) + "… output limit of 50 B reached; 17 more lines; use offset=4 to read on"
	if d := cmp.Diff(tool.Result{Output: want}, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestReadLargeFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("y", 99) + "\n"
	chunk := strings.Repeat(line, 1000)
	for range 110 { // 11 MB
		f.WriteString(chunk)
	}
	f.Close()
	read := tools(t, Options{WorkDir: dir})["read"]

	got := run(t, read, `{"path":"big.log"}`)
	want := tool.Result{IsError: true, Output: "big.log is 10.5 MiB, more than the 10.0 MiB that read returns at once; " +
		"read part of it with offset and limit (lines), or use bash (head, tail, sed -n) or grep"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}

	got = run(t, read, `{"path":"big.log","offset":100000,"limit":2}`)
	want = tool.Result{Output: fmt.Sprintf("%6d\t%s\n%6d\t%s\n", 100000, line[:99], 100001, line[:99]) +
		"… the file continues; use offset=100002 to read on"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

// A picture comes back as an image of the result (for models that take
// images), with one line of text; other binary files are still refused,
// and a picture too large for a model is refused with how to shrink it.
func TestReadImage(t *testing.T) {
	dir := t.TempDir()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	jpeg := "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01"
	writeTree(t, dir, map[string]string{"dot.png": png, "photo.jpg": jpeg, "big.png": png + strings.Repeat("\x00", maxImage)})
	rd := &readTool{Options{WorkDir: dir}.withDefaults()}
	for _, tc := range []struct {
		path, mediaType, data string
	}{{"dot.png", "image/png", png}, {"photo.jpg", "image/jpeg", jpeg}} {
		res, err := rd.Run(context.Background(), []byte(`{"path":"`+tc.path+`"}`))
		if err != nil || res.IsError {
			t.Fatalf("%s: %+v, %v", tc.path, res, err)
		}
		want := []tool.Image{{MediaType: tc.mediaType, Data: base64.StdEncoding.EncodeToString([]byte(tc.data))}}
		if d := cmp.Diff(want, res.Images()); d != "" {
			t.Errorf("%s: images (-want +got):\n%s", tc.path, d)
		}
		if !strings.HasPrefix(res.Output, tc.path+": "+tc.mediaType+" image, ") {
			t.Errorf("%s: output %q", tc.path, res.Output)
		}
	}
	res, _ := rd.Run(context.Background(), []byte(`{"path":"big.png"}`))
	if !res.IsError || !strings.Contains(res.Output, "more than the 3.7 MiB a model takes in one image") || len(res.Images()) != 0 {
		t.Errorf("big image: %+v", res.Output)
	}
}
