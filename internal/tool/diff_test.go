package tool

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// show renders a Diff as "OLD NEW KIND TEXT" lines, for comparing.
func show(d *Diff) []string {
	var out []string
	for _, l := range d.Lines {
		out = append(out, fmt.Sprintf("%d %d %s %s", l.Old, l.New, l.Kind, l.Text))
	}
	return out
}

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestNewDiff(t *testing.T) {
	long := numbered(1, 40)
	for _, tc := range []struct {
		name           string
		before, after  string
		want           []string
		added, removed int
	}{
		{"one line changed", "hello\n", "goodbye\n", []string{"1 0 - hello", "0 1 + goodbye"}, 1, 1},
		{
			"context around a change in a long file",
			long, strings.Replace(long, "line 20\n", "line twenty\n", 1),
			[]string{"17 17   line 17", "18 18   line 18", "19 19   line 19", "20 0 - line 20", "0 20 + line twenty", "21 21   line 21", "22 22   line 22", "23 23   line 23"},
			1, 1,
		},
		{
			"two changes far apart are two hunks with a gap",
			long, strings.Replace(strings.Replace(long, "line 2\n", "", 1), "line 39\n", "line 39\nnew\n", 1),
			[]string{"1 1   line 1", "2 0 - line 2", "3 2   line 3", "4 3   line 4", "5 4   line 5", "0 0 … ",
				"37 36   line 37", "38 37   line 38", "39 38   line 39", "0 39 + new", "40 40   line 40"},
			1, 1,
		},
		{"lines added at the end", "a\n", "a\nb\nc\n", []string{"1 1   a", "0 2 + b", "0 3 + c"}, 2, 0},
		{"CRLF endings are not part of the text", "a\r\nb\r\n", "a\r\nc\r\n", []string{"1 1   a", "2 0 - b", "0 2 + c"}, 1, 1},
		{"no change", "same\n", "same\n", nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDiff("f.txt", tc.before, tc.after)
			if d.Path != "f.txt" || d.TooLarge || d.Created {
				t.Errorf("diff: %+v", d)
			}
			if d.Added != tc.added || d.Removed != tc.removed {
				t.Errorf("+%d -%d, want +%d -%d", d.Added, d.Removed, tc.added, tc.removed)
			}
			if diff := cmp.Diff(tc.want, show(d)); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// A rewrite too different to diff within DiffMaxChanges is reported by
// size, without lines; so is a huge changed region.
func TestNewDiffTooLarge(t *testing.T) {
	var before, after strings.Builder
	for i := 0; i < DiffMaxChanges; i++ {
		fmt.Fprintf(&before, "old %d\n", i)
		fmt.Fprintf(&after, "new %d\n", i)
	}
	d := NewDiff("big.txt", "head\n"+before.String()+"tail\n", "head\n"+after.String()+"tail\n")
	if !d.TooLarge || d.Removed != DiffMaxChanges || d.Added != DiffMaxChanges || len(d.Lines) != 0 {
		t.Errorf("too large: TooLarge=%v -%d +%d, %d lines", d.TooLarge, d.Removed, d.Added, len(d.Lines))
	}
}

func TestNewFileDiff(t *testing.T) {
	d := NewFileDiff("new.txt", numbered(1, MaxDiffLines+5))
	if !d.Created || d.Added != MaxDiffLines+5 || len(d.Lines) != MaxDiffLines || d.More != 5 {
		t.Errorf("created: %v, +%d, %d lines, %d more", d.Created, d.Added, len(d.Lines), d.More)
	}
	if got := show(d)[0]; got != "0 1 + line 1" {
		t.Errorf("first line %q", got)
	}
	long := strings.Repeat("é", MaxDiffLineBytes)
	if l := NewFileDiff("x", long).Lines[0].Text; len(l) > MaxDiffLineBytes+len("…") || !strings.HasSuffix(l, "…") {
		t.Errorf("a long line is not cut: %d bytes", len(l))
	}
}

// BenchmarkNewDiff: an edit of one line in a 20,000-line file (the head
// and tail are skipped, so this is the common cost), and a rewrite of
// 25,000 lines into 25,000 others made of the same lines (bounded by
// DiffMaxChanges).
func BenchmarkNewDiff(b *testing.B) {
	big := numbered(1, 20000)
	edited := strings.Replace(big, "line 10000\n", "line ten thousand\n", 1)
	var x, y strings.Builder
	for i := 0; i < 25000; i++ {
		// The same few lines in other orders: every diagonal has snakes,
		// the worst case for the work bound.
		fmt.Fprintf(&x, "line %d\n", i%97)
		fmt.Fprintf(&y, "line %d\n", i%89)
	}
	b.Run("edit", func(b *testing.B) {
		for b.Loop() {
			NewDiff("f", big, edited)
		}
	})
	b.Run("rewrite", func(b *testing.B) {
		for b.Loop() {
			if d := NewDiff("f", x.String(), y.String()); !d.TooLarge {
				b.Fatal("a rewrite of 25,000 lines was diffed")
			}
		}
	})
}
