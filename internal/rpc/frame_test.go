package rpc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Lines reads a frame per line, the last one without a newline too, and
// drops a line over MaxFrame with ErrFrameTooLarge, reading on after it.
func TestLinesFrames(t *testing.T) {
	big := strings.Repeat("x", MaxFrame+1)
	for _, tc := range []struct {
		name, in string
		want     []string // "!" for ErrFrameTooLarge
	}{
		{"lines", "a\nb\n", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"empty lines", "\n\na\n", []string{"", "", "a"}},
		{"at the limit", strings.Repeat("y", MaxFrame) + "\nz\n", []string{strings.Repeat("y", MaxFrame), "z"}},
		{"over the limit", big + "\nz\n", []string{"!", "z"}},
		{"over the limit at the end", "z\n" + big, []string{"z", "!"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, strings.NewReader(tc.in))
			if diff := cmp.Diff(tc.want, got); diff != "" && len(diff) < 2000 {
				t.Errorf("frames (-want +got):\n%s", diff)
			} else if diff != "" {
				t.Errorf("frames differ (%d vs %d)", len(tc.want), len(got))
			}
		})
	}
}

func readAll(t testing.TB, r io.Reader) []string {
	l := Lines(r, io.Discard)
	var got []string
	for {
		f, err := l.ReadFrame(context.Background())
		switch {
		case errors.Is(err, ErrFrameTooLarge):
			got = append(got, "!")
			continue
		case err == io.EOF:
			return got
		case err != nil:
			t.Fatal(err)
		}
		got = append(got, string(f))
	}
}

// FuzzLines: whatever comes in, frames never hold a newline, never pass
// MaxFrame, and reading ends.
func FuzzLines(f *testing.F) {
	f.Add([]byte("{\"type\":\"prompt\"}\n{}\r\n"))
	f.Add([]byte("\n\n\n"))
	f.Add(bytes.Repeat([]byte("a"), 5000))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, fr := range readAll(t, bytes.NewReader(in)) {
			if strings.ContainsRune(fr, '\n') || len(fr) > MaxFrame {
				t.Fatalf("bad frame %q", fr)
			}
		}
	})
}
