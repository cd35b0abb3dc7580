package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bashTurn runs change between BeforeCommand and AfterCommand, as the
// bash tool's wrapper does around a command.
func bashTurn(t *testing.T, s *Store, root string, change func()) {
	t.Helper()
	ctx := context.Background()
	if err := s.BeforeCommand(ctx, root, WalkAll); err != nil {
		t.Fatal(err)
	}
	change()
	if err := s.AfterCommand(ctx, WalkAll); err != nil {
		t.Fatal(err)
	}
}

// TestBashChanges: what a command changed, created and removed in the
// project is recorded, and rewinding puts it back; files in skipped
// directories, and a file past the size bound (named not restorable),
// are left alone; the record holds across a reopen.
func TestBashChanges(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	p := func(n string) string { return filepath.Join(work, filepath.FromSlash(n)) }
	write := func(n, s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p(n)), 0o755)
		if err := os.WriteFile(p(n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(n string) string {
		b, err := os.ReadFile(p(n))
		if err != nil {
			return "<absent>"
		}
		return string(b)
	}
	write("edited.txt", "before\n")
	write("gone.txt", "removed by the command\n")
	write("same.txt", "untouched\n")
	write("node_modules/dep.js", "dep v1\n")
	write("big.bin", strings.Repeat("z", MaxFileBytes+1))

	s := Open(base, "sess")
	s.Begin("change things with bash", 0)
	bashTurn(t, s, work, func() {
		write("edited.txt", "after, and longer\n")
		write("sub/new.txt", "created\n")
		os.Remove(p("gone.txt"))
		write("node_modules/dep.js", "dep v2\n")
		write("big.bin", "small now")
	})
	// A second command in the same turn: the first's record of a file wins.
	bashTurn(t, s, work, func() { write("edited.txt", "third\n") })

	pts := Open(base, "sess").Points()
	if len(pts) != 1 {
		t.Fatalf("%d points, want 1", len(pts))
	}
	var got []string
	for _, f := range pts[0].Files {
		rel, _ := filepath.Rel(work, f.Path)
		got = append(got, filepath.ToSlash(rel)+map[bool]string{true: " existed", false: " created"}[f.Existed]+map[bool]string{true: " not-restorable"}[f.TooLarge])
	}
	want := []string{"big.bin existed not-restorable", "edited.txt existed", "gone.txt existed", "sub/new.txt created"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("recorded (-want +got):\n%s", d)
	}
	if n := pts[0].NotRestorable(); n != 1 {
		t.Errorf("NotRestorable = %d, want 1", n)
	}

	out, err := Open(base, "sess").RestoreCode(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Restored) != 2 || len(out.Removed) != 1 || len(out.Skipped) != 1 {
		t.Errorf("outcome %+v: want 2 restored, 1 removed, 1 skipped", out)
	}
	for n, want := range map[string]string{
		"edited.txt": "before\n", "gone.txt": "removed by the command\n", "same.txt": "untouched\n",
		"sub/new.txt": "<absent>", "node_modules/dep.js": "dep v2\n", "big.bin": "small now",
	} {
		if got := read(n); got != want {
			t.Errorf("%s = %.30q, want %q", n, got, want)
		}
	}
}

// TestBashNextTurn: the index is taken again in each turn, so a file
// edit changed in turn 1 and bash in turn 2 goes back to its turn-2
// state when rewinding to turn 2: turn 1's index of it does not leak
// into turn 2.
func TestBashNextTurn(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	f := filepath.Join(work, "f.txt")
	os.WriteFile(f, []byte("v0"), 0o644)
	os.WriteFile(filepath.Join(work, "other.txt"), []byte("o"), 0o644)
	s := Open(base, "sess")
	s.Begin("one", 0)
	bashTurn(t, s, work, func() {})
	s.Record(f) // the edit tool
	os.WriteFile(f, []byte("v1 by edit"), 0o644)
	s.Begin("two", 2)
	bashTurn(t, s, work, func() { os.WriteFile(f, []byte("v2 by bash"), 0o644) })
	if _, err := s.RestoreCode(1); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f); string(b) != "v1 by edit" {
		t.Errorf("f.txt = %q after rewinding turn 2, want %q", b, "v1 by edit")
	}
	if _, err := s.RestoreCode(0); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f); string(b) != "v0" {
		t.Errorf("f.txt = %q after rewinding turn 1, want %q", b, "v0")
	}
}

// TestLogAppends: each change appends a line instead of rewriting the
// record; a long session's log is rewritten when it holds far more than
// the record (cut points), and stays readable.
func TestLogAppends(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	s := Open(base, "sess")
	for i := 0; i < 3; i++ {
		s.Begin("p", i)
		s.Record(filepath.Join(work, "f"+string(rune('a'+i))))
	}
	if n := s.log.lines(); n != 6 {
		t.Errorf("log has %d lines after 3 points of 1 file, want 6", n)
	}
	for i := 0; i < 400; i++ {
		s.Begin("again", i)
		s.Truncate(3)
	}
	if n := s.log.lines(); n > 2*4+compactAfter+1 {
		t.Errorf("log has %d lines for a record of 3 points: not compacted", n)
	}
	if got := len(Open(base, "sess").Points()); got != 3 {
		t.Errorf("%d points read back, want 3", got)
	}
}

// TestLegacyRecord: a record of the older form (<id>.json with the
// contents inline) is read, and restores.
func TestLegacyRecord(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	f := filepath.Join(work, "old.txt")
	os.WriteFile(f, []byte("changed"), 0o644)
	old := []Point{{Prompt: "old", Files: []File{{Path: f, Existed: true, Content: []byte("original"), Mode: 0o644}}}}
	b, _ := json.Marshal(old)
	os.MkdirAll(filepath.Join(base, "checkpoints"), 0o700)
	os.WriteFile(filepath.Join(base, "checkpoints", "sess.json"), b, 0o600)
	s := Open(base, "sess")
	if got := len(s.Points()); got != 1 {
		t.Fatalf("%d points from the older record, want 1", got)
	}
	if _, err := Open(base, "sess").RestoreCode(0); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f); string(b) != "original" {
		t.Errorf("old.txt = %q, want %q", b, "original")
	}
}

// TestAdoptAndClose: a session forked by a rewind of the conversation
// adopts the earlier points with their kept contents (restorable from
// the new session's own record after the old one's packs are gone), and
// closing a store removes its bash index's packs.
func TestAdoptAndClose(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	f := filepath.Join(work, "f.txt")
	os.WriteFile(f, []byte("v0"), 0o644)
	old := Open(base, "old")
	old.Begin("one", 0)
	bashTurn(t, old, work, func() { os.WriteFile(f, []byte("v1"), 0o644) })
	packs := filepath.Join(base, "checkpoints", "old", "packs")
	if entries, _ := os.ReadDir(packs); len(entries) != 1 {
		t.Fatalf("%d packs while the session runs, want 1", len(entries))
	}
	old.Close()
	if entries, _ := os.ReadDir(packs); len(entries) != 0 {
		t.Errorf("%d packs left after Close, want 0", len(entries))
	}
	forked := Open(base, "new")
	forked.Adopt(old, old.Points())
	os.RemoveAll(filepath.Join(base, "checkpoints", "old"))
	if _, err := Open(base, "new").RestoreCode(0); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f); string(b) != "v0" {
		t.Errorf("f.txt = %q from the forked session's record, want %q", b, "v0")
	}
}

// TestLogCutShort: a last line cut short (synaps killed mid-write) ends
// the log; what came before it is read, and the record goes on.
func TestLogCutShort(t *testing.T) {
	base := t.TempDir()
	s := Open(base, "sess")
	s.Begin("one", 0)
	s.Begin("two", 2)
	lf, err := os.OpenFile(filepath.Join(base, "checkpoints", "sess", "log.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	lf.WriteString(`{"op":"point","point":{"prom`)
	lf.Close()
	s = Open(base, "sess")
	if got := len(s.Points()); got != 2 {
		t.Errorf("%d points read from a log whose last line was cut, want 2", got)
	}
	s.Begin("three", 4)
	if got := len(Open(base, "sess").Points()); got != 3 {
		t.Errorf("%d points after one more, want 3", got)
	}
}

// TestBaseInsideProject: when the project holds synaps's base directory
// (a project that is the home directory), the record's own files and
// the sessions, which change as synaps works, are not taken for the
// command's changes (a rewind would put an old record back over the
// live one).
func TestBaseInsideProject(t *testing.T) {
	work := t.TempDir()
	base := filepath.Join(work, ".synaps-cli")
	f := filepath.Join(work, "f.txt")
	os.WriteFile(f, []byte("v0"), 0o644)
	session := filepath.Join(base, "sessions", "s.jsonl")
	os.MkdirAll(filepath.Dir(session), 0o700)
	os.WriteFile(session, []byte("{}\n"), 0o600)
	s := Open(base, "sess")
	s.Begin("one", 0)
	bashTurn(t, s, work, func() {
		os.WriteFile(f, []byte("v1"), 0o644)
		s.Record(filepath.Join(work, "g.txt")) // an edit's record, in the log
		os.WriteFile(session, []byte("{}\n{}\n"), 0o600)
	})
	var got []string
	for _, f := range s.Points()[0].Files {
		rel, _ := filepath.Rel(work, f.Path)
		got = append(got, filepath.ToSlash(rel))
	}
	if d := cmp.Diff([]string{"g.txt", "f.txt"}, got); d != "" {
		t.Errorf("recorded (-want +got):\n%s", d)
	}
}

// lines counts the entries of the log on disk.
func (l *logFile) lines() int {
	b, _ := os.ReadFile(l.path)
	return bytes.Count(b, []byte("\n"))
}
