package session

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// newSaved makes a closed session with a user and an assistant message.
func newSaved(t *testing.T, base, prompt string) *Session {
	t.Helper()
	s, err := Create(base, "m", "/w")
	if err != nil {
		t.Fatal(err)
	}
	s.Append(text(llm.RoleUser, prompt))
	s.Append(text(llm.RoleAssistant, "answer to "+prompt))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

func ignoreTime() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Time" }, cmp.Ignore())
}

// A closed session has an index entry, and List takes what it shows from
// there: the session file's body is not read. (The test rewrites the
// title in the file without changing its size or time; List still shows
// the indexed one.)
func TestListReadsTheIndexNotTheBody(t *testing.T) {
	base := t.TempDir()
	s := newSaved(t, base, "first prompt")
	if _, err := os.Stat(indexPath(base, s.ID)); err != nil {
		t.Fatalf("no index entry after Close: %v", err)
	}
	fi, _ := os.Stat(s.Path)
	data, _ := os.ReadFile(s.Path)
	os.WriteFile(s.Path, []byte(strings.Replace(string(data), "first prompt", "FIRST PROMPT", 1)), 0o600)
	os.Chtimes(s.Path, fi.ModTime(), fi.ModTime())

	list, warnings, err := ListWarn(base)
	if err != nil || len(list) != 1 || len(warnings) != 0 {
		t.Fatalf("ListWarn = %+v, %q, %v", list, warnings, err)
	}
	if list[0].Title != "first prompt" {
		t.Errorf("title %q; want the indexed one, %q", list[0].Title, "first prompt")
	}
}

// Every way an index entry can be wrong: List still lists every session,
// as the files say, warns about the entries it could not trust, and
// rewrites them.
func TestListRebuildsABadIndex(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, base string, s *Session)
		warn  string // "" means no warning
	}{
		{"garbage", func(t *testing.T, base string, s *Session) {
			os.WriteFile(indexPath(base, s.ID), []byte("{not json"), 0o600)
		}, "not an index entry"},
		{"empty", func(t *testing.T, base string, s *Session) {
			os.WriteFile(indexPath(base, s.ID), nil, 0o600)
		}, "not an index entry"},
		{"another session's", func(t *testing.T, base string, s *Session) {
			data, _ := os.ReadFile(indexPath(base, s.ID))
			os.WriteFile(indexPath(base, s.ID), []byte(strings.ReplaceAll(string(data), s.ID, "20200101-000000-zzzz")), 0o600)
		}, "not an index entry of this session"},
		{"describes more bytes than the file has", func(t *testing.T, base string, s *Session) {
			data, _ := os.ReadFile(s.Path)
			lines := strings.SplitAfter(string(data), "\n")
			os.WriteFile(s.Path, []byte(strings.Join(lines[:2], "")), 0o600) // header and the user message
		}, "is stale"},
		{"same size, rewritten", func(t *testing.T, base string, s *Session) {
			data, _ := os.ReadFile(s.Path)
			os.WriteFile(s.Path, []byte(strings.Replace(string(data), "prompt two", "PROMPT TWO", 1)), 0o600)
			later := time.Now().Add(time.Hour)
			os.Chtimes(s.Path, later, later)
		}, "is stale"},
		{"missing", func(t *testing.T, base string, s *Session) {
			os.Remove(indexPath(base, s.ID))
		}, ""},
		{"whole index directory gone", func(t *testing.T, base string, s *Session) {
			os.RemoveAll(IndexDir(base))
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			one := newSaved(t, base, "prompt one")
			two := newSaved(t, base, "prompt two")
			tt.spoil(t, base, two)
			// What the files say, read whole.
			var want []Info
			for _, s := range []*Session{two, one} {
				d, err := Read(s.Path)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, entryFromData(s.ID, d).Info)
			}
			list, warnings, err := ListWarn(base)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, list, ignoreTime()); d != "" {
				t.Errorf("List (-want +got):\n%s", d)
			}
			switch {
			case tt.warn == "" && len(warnings) > 0:
				t.Errorf("warnings %q; want none", warnings)
			case tt.warn != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tt.warn) || !strings.Contains(warnings[0], two.ID)):
				t.Errorf("warnings %q; want one about %s saying %q", warnings, two.ID, tt.warn)
			}
			// Rebuilt: the next listing trusts the index again.
			if _, warnings, _ := ListWarn(base); len(warnings) > 0 {
				t.Errorf("second listing warns again: %q", warnings)
			}
			if _, err := readIndex(base, two.ID); err != nil {
				t.Errorf("index entry not rewritten: %v", err)
			}
		})
	}
}

// A session file that grew after its index entry was written (another
// synaps appending to it, or one killed between a record and its index
// write) is read from where the entry ends: no warning, the new messages
// counted, and a record still being written (no newline yet) left for
// later.
func TestListReadsOnlyTheNewTail(t *testing.T) {
	base := t.TempDir()
	s, _ := Create(base, "m", "/w")
	s.Append(llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "hello"}}})
	s.Sync() // the entry: one message, no title
	s.Append(text(llm.RoleUser, "the title"))
	s.Append(text(llm.RoleAssistant, "ok"))
	f, _ := os.OpenFile(s.Path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"v":1,"type":"message","message":{"role":"user","con`)
	f.Close()

	list, warnings, err := ListWarn(base)
	if err != nil || len(list) != 1 || len(warnings) != 0 {
		t.Fatalf("ListWarn = %+v, %q, %v", list, warnings, err)
	}
	want := Info{ID: s.ID, Model: "m", Cwd: "/w", Messages: 3, Title: "the title"}
	if d := cmp.Diff(want, list[0], ignoreTime()); d != "" {
		t.Errorf("info (-want +got):\n%s", d)
	}
	s.Close()
}

// The index entry of an open session says what it holds at each turn
// boundary: a listing from another process sees the current count.
func TestIndexKeptCurrentAtSync(t *testing.T) {
	base := t.TempDir()
	s, _ := Create(base, "m", "/w")
	defer s.Close()
	for i := 1; i <= 3; i++ {
		s.Append(text(llm.RoleUser, "q"))
		s.Sync()
		e, err := readIndex(base, s.ID)
		if err != nil || e == nil || e.Messages != i {
			t.Fatalf("after %d messages the entry is %+v, %v", i, e, err)
		}
	}
}

// SyncTurn (between the model turns of one user message) leaves the entry
// as the last Sync wrote it, and a listing meanwhile still sees every
// message, from the entry and the tail after it; the next Sync brings the
// entry up to date.
func TestSyncTurnLeavesTheIndex(t *testing.T) {
	base := t.TempDir()
	s, _ := Create(base, "m", "/w")
	defer s.Close()
	s.Append(text(llm.RoleUser, "the title"))
	s.Sync()
	for range 2 {
		s.Append(text(llm.RoleAssistant, "a tool call"))
		if err := s.SyncTurn(); err != nil {
			t.Fatal(err)
		}
	}
	messages := func() int {
		e, err := readIndex(base, s.ID)
		if err != nil || e == nil {
			t.Fatalf("entry %+v, %v", e, err)
		}
		return e.Messages
	}
	if n := messages(); n != 1 {
		t.Errorf("after SyncTurn the entry holds %d messages, want the 1 of the last Sync", n)
	}
	list, warnings, err := ListWarn(base)
	if err != nil || len(warnings) != 0 || len(list) != 1 {
		t.Fatalf("ListWarn = %+v, %q, %v", list, warnings, err)
	}
	want := Info{ID: s.ID, Model: "m", Cwd: "/w", Messages: 3, Title: "the title"}
	if d := cmp.Diff(want, list[0], ignoreTime()); d != "" {
		t.Errorf("listed mid-message (-want +got):\n%s", d)
	}
	s.Append(text(llm.RoleAssistant, "done"))
	s.Sync()
	if n := messages(); n != 4 {
		t.Errorf("after Sync the entry holds %d messages, want 4", n)
	}
}
