package memory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock returns a store whose clock starts at 1000 ms and moves only when
// told.
func fixedStore(t *testing.T, dir string, ms *int64) *Store {
	t.Helper()
	s := Open(dir)
	s.now = func() time.Time { return time.UnixMilli(*ms) }
	return s
}

func contents(recs []Record) []string {
	out := []string{}
	for _, r := range recs {
		out = append(out, r.Content)
	}
	return out
}

func TestQuery(t *testing.T) {
	dir := t.TempDir()
	ms := int64(1000)
	s := fixedStore(t, dir, &ms)
	add := func(content string, tags ...string) {
		t.Helper()
		if _, err := s.Append("p", content, tags, nil); err != nil {
			t.Fatal(err)
		}
		ms += 10
	}
	add("Alpha one", "topic/a")
	add("beta two", "topic/b", "x")
	add("ALPHA three")
	add("gamma four", "other")
	if _, err := s.Append("q", "other namespace", nil, nil); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"all, newest first", Query{}, []string{"gamma four", "ALPHA three", "beta two", "Alpha one"}},
		{"contains ignores case", Query{ContentContains: "alpha"}, []string{"ALPHA three", "Alpha one"}},
		{"tag prefix", Query{TagPrefix: "topic/"}, []string{"beta two", "Alpha one"}},
		{"since inclusive", Query{SinceMS: 1020}, []string{"gamma four", "ALPHA three"}},
		{"until inclusive", Query{UntilMS: 1010}, []string{"beta two", "Alpha one"}},
		{"limit", Query{Limit: 1}, []string{"gamma four"}},
		{"nothing", Query{ContentContains: "delta"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Query("p", tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, contents(got)); diff != "" {
				t.Errorf("Query(%+v) (-want +got):\n%s", tt.q, diff)
			}
		})
	}
}

// TestDurable: a second store over the same directory (a new session) sees
// what the first stored, and what it appends afterwards, and skips a torn
// line.
func TestDurable(t *testing.T) {
	dir := t.TempDir()
	ms := int64(5000)
	a := fixedStore(t, dir, &ms)
	rec, err := a.Append("p", "first", []string{"t"}, json.RawMessage(`{"k": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Namespace: "p", TimestampMS: 5000, Content: "first", Tags: []string{"t"}, Meta: json.RawMessage(`{"k":1}`)}
	if diff := cmp.Diff(want, rec); diff != "" {
		t.Errorf("Append returned (-want +got):\n%s", diff)
	}
	b := Open(dir)
	got, err := b.Query("p", Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Record{want}, got); diff != "" {
		t.Errorf("a new store reads (-want +got):\n%s", diff)
	}
	// A torn line and then a good one, appended by someone else.
	f, err := os.OpenFile(filepath.Join(dir, "p.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"namespace\":\"p\",\"cont\n")
	f.Close()
	if _, err := a.Append("p", "second", nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err = b.Query("p", Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"second", "first"}, contents(got)); diff != "" {
		t.Errorf("after an append elsewhere (-want +got):\n%s", diff)
	}
	// Same millisecond: the timestamp still increases.
	if got[0].TimestampMS <= got[1].TimestampMS {
		t.Errorf("timestamps %d then %d do not increase", got[1].TimestampMS, got[0].TimestampMS)
	}
	info, err := os.Stat(filepath.Join(dir, "p.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("memory file mode %v, want 0600", info.Mode().Perm())
	}
}

func TestRefused(t *testing.T) {
	s := Open(t.TempDir())
	for _, ns := range []string{"", "..", "a/b", `a\b`} {
		if _, err := s.Append(ns, "x", nil, nil); err == nil {
			t.Errorf("Append(%q) succeeded", ns)
		}
		if _, err := s.Query(ns, Query{}); err == nil {
			t.Errorf("Query(%q) succeeded", ns)
		}
	}
	if _, err := s.Append("p", strings.Repeat("x", MaxContent+1), nil, nil); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("oversized content: %v", err)
	}
}

// TestConcurrentAppends: appends from many goroutines and two stores
// (two sessions) all land whole.
func TestConcurrentAppends(t *testing.T) {
	dir := t.TempDir()
	a, b := Open(dir), Open(dir)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			if _, err := s.Append("p", strings.Repeat("y", 8000), nil, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := Open(dir).Query("p", Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 40 {
		t.Errorf("%d records read back, want 40", len(got))
	}
}
