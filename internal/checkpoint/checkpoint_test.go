package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRestoreCode: files changed over three prompts go back to how they
// were before the prompt chosen; files created since are removed; a file
// too large to keep is left alone and named; the record survives a
// reopen.
func TestRestoreCode(t *testing.T) {
	for _, tc := range []struct {
		name  string
		to    int
		files map[string]string // after the restore; "" absent
		out   Outcome
	}{
		{"before the first prompt", 0,
			map[string]string{"keep.txt": "v0", "new1.txt": "", "new2.txt": "", "big.bin": "changed"},
			Outcome{Restored: []string{"keep.txt"}, Removed: []string{"new2.txt", "new1.txt"}, Skipped: []string{"big.bin"}}},
		{"before the second prompt", 1,
			map[string]string{"keep.txt": "v1", "new1.txt": "n1", "new2.txt": "", "big.bin": "changed"},
			Outcome{Restored: []string{"keep.txt"}, Removed: []string{"new2.txt"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, work := t.TempDir(), t.TempDir()
			p := func(n string) string { return filepath.Join(work, n) }
			write := func(n, s string) {
				if err := os.WriteFile(p(n), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("keep.txt", "v0")
			write("big.bin", strings.Repeat("x", MaxFileBytes+1))
			s := Open(base, "sess")
			s.Begin("one", 0)
			s.Record(p("keep.txt"))
			write("keep.txt", "v1")
			s.Record(p("keep.txt")) // the first record of a prompt wins
			s.Record(p("new1.txt"))
			write("new1.txt", "n1")
			s.Record(p("big.bin"))
			write("big.bin", "changed")
			s.Begin("two", 2)
			s.Record(p("keep.txt"))
			write("keep.txt", "v2")
			s.Record(p("new2.txt"))
			write("new2.txt", "n2")

			s = Open(base, "sess") // from disk
			if got := len(s.Points()); got != 2 {
				t.Fatalf("%d points after reopening, want 2", got)
			}
			out, err := s.RestoreCode(tc.to)
			if err != nil {
				t.Fatal(err)
			}
			rel := func(l []string) []string {
				for i := range l {
					l[i] = filepath.Base(l[i])
				}
				return l
			}
			out.Restored, out.Removed, out.Skipped = rel(out.Restored), rel(out.Removed), rel(out.Skipped)
			if d := cmp.Diff(tc.out, out); d != "" {
				t.Errorf("outcome (-want +got):\n%s", d)
			}
			for n, want := range tc.files {
				b, err := os.ReadFile(p(n))
				got := string(b)
				if err != nil {
					got = ""
				}
				if got != want {
					t.Errorf("%s = %.20q, want %q", n, got, want)
				}
			}
			if got := len(Open(base, "sess").Points()); got != tc.to {
				t.Errorf("%d points kept, want %d", got, tc.to)
			}
		})
	}
}

// TestBound: past MaxBytes the oldest points are dropped.
func TestBound(t *testing.T) {
	work := t.TempDir()
	s := Open(t.TempDir(), "sess")
	big := strings.Repeat("y", MaxFileBytes)
	for i := 0; i < 20; i++ {
		f := filepath.Join(work, "f"+string(rune('a'+i)))
		if err := os.WriteFile(f, []byte(big), 0o644); err != nil {
			t.Fatal(err)
		}
		s.Begin("p", i)
		s.Record(f)
	}
	pts := s.Points()
	if want := MaxBytes / MaxFileBytes; len(pts) != want || pts[len(pts)-1].Messages != 19 {
		t.Errorf("%d points kept (last %d), want the newest %d", len(pts), pts[len(pts)-1].Messages, want)
	}
}
