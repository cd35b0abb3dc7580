package session

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

func TestMain(m *testing.M) {
	if os.Getenv("SESSION_WRITER") != "" {
		writer(os.Getenv("SESSION_WRITER"))
		return
	}
	if h := os.Getenv("SESSION_HOLDER"); h != "" {
		holder(h)
		return
	}
	os.Exit(m.Run())
}

func text(role llm.Role, s string) llm.Message {
	return llm.Message{Role: role, Content: []llm.Block{{Type: llm.BlockText, Text: s}}}
}

func TestCreateAppendOpenList(t *testing.T) {
	base := t.TempDir()
	s, err := Create(base, "script:demo.jsonl", "/work")
	if err != nil {
		t.Fatal(err)
	}
	msgs := []llm.Message{
		text(llm.RoleUser, "list the files"),
		{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: "t1", Name: "ls", Input: []byte(`{"path":"."}`)}}},
		{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "a.go\n"}}},
		text(llm.RoleAssistant, "There is a.go."),
	}
	for _, m := range msgs {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(msgs, r.Messages()); d != "" {
		t.Errorf("messages after reopen (-want +got):\n%s", d)
	}
	r.Append(text(llm.RoleUser, "thanks"))
	r.Close()
	list, err := List(base)
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	want := Info{ID: s.ID, Model: "script:demo.jsonl", Cwd: "/work", Messages: 5, Title: "list the files"}
	if d := cmp.Diff(want, list[0], cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Time" }, cmp.Ignore())); d != "" {
		t.Errorf("info (-want +got):\n%s", d)
	}
	if latest, _ := Latest(base); latest != s.ID {
		t.Errorf("Latest = %q", latest)
	}
}

func TestReaderSkipsDamagedLines(t *testing.T) {
	base := t.TempDir()
	s, _ := Create(base, "m", "/")
	s.Append(text(llm.RoleUser, "one"))
	s.Close()
	f, _ := os.OpenFile(s.Path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json at all\n")
	f.WriteString(`{"v":1,"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"two"}]}}` + "\n")
	f.WriteString(`{"v":1,"type":"message","message":{"role":"user","content":[{"type":"text","te`) // cut short
	f.Close()
	d, err := Read(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Skipped != 2 || len(d.Messages) != 2 || d.Messages[1].Content[0].Text != "two" {
		t.Fatalf("read %+v", d)
	}
	// Appending after a cut-short line starts a fresh line.
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.Append(text(llm.RoleUser, "three"))
	r.Close()
	d, _ = Read(s.Path)
	if len(d.Messages) != 3 || d.Messages[2].Content[0].Text != "three" {
		t.Fatalf("after append: %+v", d.Messages)
	}
}

func TestOpenMissingSession(t *testing.T) {
	_, err := Open(t.TempDir(), "20260101-000000-zzzz")
	if err == nil || !strings.Contains(err.Error(), "synaps sessions list") {
		t.Fatalf("err = %v", err)
	}
}

// writer is the child of TestSIGKILLKeepsEveryCompletedRecord: it appends
// numbered messages as fast as it can and prints each number once written.
func writer(base string) {
	s, err := Create(base, "m", "/")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.ID)
	big := strings.Repeat("x", 64<<10)
	for i := 0; ; i++ {
		if err := s.Append(text(llm.RoleUser, fmt.Sprintf("%d %s", i, big))); err != nil {
			panic(err)
		}
		if i%10 == 0 {
			s.Sync()
		}
		fmt.Println(i)
	}
}

func TestSIGKILLKeepsEveryCompletedRecord(t *testing.T) {
	for round := 0; round < 5; round++ {
		base := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SESSION_WRITER="+base)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64<<10)
		var seen strings.Builder
		deadline := time.Now().Add(time.Duration(20+round*15) * time.Millisecond)
		for time.Now().Before(deadline) {
			n, err := out.Read(buf)
			seen.Write(buf[:n])
			if err != nil {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		rest := make([]byte, 1<<20)
		for {
			n, err := out.Read(rest)
			seen.Write(rest[:n])
			if err != nil {
				break
			}
		}
		cmd.Wait()
		lines := strings.Fields(seen.String())
		if len(lines) == 0 {
			t.Fatal("writer printed nothing")
		}
		id := lines[0]
		acked := len(lines) - 1 // every number printed was fully written
		d, err := Read(filepath.Join(Dir(base), id+".jsonl"))
		if err != nil && acked == 0 {
			// Killed before the first message was written: a session is
			// saved from its first message, so there is no file or one
			// with (part of) a header, and nothing acknowledged is lost.
			if list, err := List(base); err != nil || len(list) != 0 {
				t.Fatalf("round %d: a session killed before it saved anything is listed: %+v, %v", round, list, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Messages) < acked {
			t.Fatalf("round %d: %d messages acknowledged, %d read back", round, acked, len(d.Messages))
		}
		for i, m := range d.Messages {
			if !strings.HasPrefix(m.Content[0].Text, fmt.Sprintf("%d ", i)) {
				t.Fatalf("round %d: message %d is %q…", round, i, m.Content[0].Text[:10])
			}
		}
		r, err := Open(base, id)
		if err != nil {
			t.Fatal(err)
		}
		r.Append(text(llm.RoleUser, "resumed"))
		r.Close()
		d2, _ := Read(filepath.Join(Dir(base), id+".jsonl"))
		if last := d2.Messages[len(d2.Messages)-1]; last.Content[0].Text != "resumed" || len(d2.Messages) != len(d.Messages)+1 {
			t.Fatalf("round %d: resume lost records", round)
		}
	}
}

func TestCompactedSessionKeepsItsSummary(t *testing.T) {
	base := t.TempDir()
	s, err := CreateCompacted(base, "m", "/", "20260101-000000-aaaa", "we fixed the parser")
	if err != nil {
		t.Fatal(err)
	}
	s.Append(text(llm.RoleUser, "next"))
	s.Close()
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Summary != "we fixed the parser" || len(r.Messages()) != 1 {
		t.Fatalf("summary %q, messages %d", r.Summary, len(r.Messages()))
	}
}

// A session stopped while its tools ran is repaired on resume: every tool
// call gets a result, so the conversation is one the model APIs accept.
func TestResumeAnswersInterruptedToolCalls(t *testing.T) {
	base := t.TempDir()
	s, _ := Create(base, "m", "/")
	s.Append(text(llm.RoleUser, "run two things"))
	s.Append(llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{
		{Type: llm.BlockText, Text: "ok"},
		{Type: llm.BlockToolUse, ID: "a", Name: "bash", Input: []byte(`{}`)},
		{Type: llm.BlockToolUse, ID: "b", Name: "bash", Input: []byte(`{}`)},
	}})
	s.Close()
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	d, _ := Read(s.Path)
	last := d.Messages[len(d.Messages)-1]
	if len(d.Messages) != 3 || last.Role != llm.RoleUser || len(last.Content) != 2 ||
		last.Content[0].ToolUseID != "a" || last.Content[1].ToolUseID != "b" || !last.Content[0].IsError || last.Content[0].Content != Interrupted {
		t.Fatalf("after resume: %+v", d.Messages)
	}
	// A whole session is left alone.
	r2, _ := Open(base, s.ID)
	r2.Close()
	if d2, _ := Read(s.Path); len(d2.Messages) != 3 {
		t.Fatalf("repaired twice: %d messages", len(d2.Messages))
	}
}

func TestLatestWithinOneSecond(t *testing.T) {
	base := t.TempDir()
	var last string
	for i := 0; i < 5; i++ {
		s, err := Create(base, "m", "/")
		if err != nil {
			t.Fatal(err)
		}
		s.Append(llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}})
		s.Close()
		last = s.ID
		if got, _ := Latest(base); got != last {
			t.Fatalf("Latest = %s, want the session just created %s", got, last)
		}
	}
}

// A launch that sends nothing leaves no file, and an empty file an older
// synaps left is neither listed nor continued: --continue takes the newest
// session that has a message.
func TestEmptySessionIsNotSavedListedOrContinued(t *testing.T) {
	base := t.TempDir()
	real, err := Create(base, "m", "/")
	if err != nil {
		t.Fatal(err)
	}
	if err := real.Append(text(llm.RoleUser, "real work")); err != nil {
		t.Fatal(err)
	}
	real.Close()
	rewriteTime(t, real.Path, "2020-01-01T00:00:00Z")

	for i := 0; i < 2; i++ {
		empty, err := Create(base, "m", "/")
		if err != nil {
			t.Fatal(err)
		}
		if empty.Saved() {
			t.Errorf("a session with no record says it is saved")
		}
		empty.Sync()
		if err := empty.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(empty.Path); !os.IsNotExist(err) {
			t.Errorf("a launch that sent nothing left %s (stat: %v)", empty.Path, err)
		}
	}
	// What an older synaps wrote for a launch that sent nothing.
	old := filepath.Join(Dir(base), "29990101-000000-emp1.jsonl")
	os.WriteFile(old, []byte(`{"v":1,"type":"session","time":"2999-01-01T00:00:00Z","id":"29990101-000000-emp1"}`+"\n"), 0o600)

	list, err := List(base)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, in := range list {
		ids = append(ids, in.ID)
	}
	if d := cmp.Diff([]string{real.ID}, ids); d != "" {
		t.Errorf("listed sessions (-want +got):\n%s", d)
	}
	if id, err := Latest(base); id != real.ID || err != nil {
		t.Errorf("Latest = %q, %v; want the session with a message, %s", id, err, real.ID)
	}
	if !real.Saved() {
		t.Errorf("a session with a message says it is not saved")
	}
}

// Usage saved with answers is summed on open; messages without it add
// nothing, and a record without a usage field (older files) reads as zero.
func TestUsageIsSavedWithAnswers(t *testing.T) {
	base := t.TempDir()
	s, err := Create(base, "m", "/w")
	if err != nil {
		t.Fatal(err)
	}
	user := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}}
	answer := llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "hello"}}}
	u := llm.Usage{InputTokens: 10, OutputTokens: 3, CacheReadTokens: 4, CacheWriteTokens: 1}
	for _, step := range []func() error{
		func() error { return s.Append(user) },
		func() error { return s.AppendUsed(answer, u) },
		func() error { return s.Append(user) },
		func() error { return s.AppendUsed(answer, u) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	want := u.Add(u)
	if d := cmp.Diff(want, s.Usage()); d != "" {
		t.Errorf("usage in memory (-want +got):\n%s", d)
	}
	s.Close()
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if d := cmp.Diff(want, r.Usage()); d != "" {
		t.Errorf("usage after open (-want +got):\n%s", d)
	}
}

// LatestIn is --continue's choice: the session of the directory used
// last, whatever other directories did since.
func TestLatestInTakesTheDirectorysNewest(t *testing.T) {
	base := t.TempDir()
	proj, other := t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	start := func(cwd string) string {
		s, err := Create(base, "m", cwd)
		if err != nil {
			t.Fatal(err)
		}
		s.Append(text(llm.RoleUser, "hi from "+cwd))
		s.Close()
		return s.ID
	}
	older := start(proj)
	newer := start(proj + "/") // the same directory, spelt otherwise
	elsewhere := start(other)
	tests := []struct {
		dir, want string
	}{
		{proj, newer},
		{link, newer},
		{other, elsewhere},
		{t.TempDir(), ""},
	}
	for _, tt := range tests {
		got, _, err := LatestIn(base, tt.dir)
		if err != nil || got != tt.want {
			t.Errorf("LatestIn(%s) = %q, %v; want %q (older %s)", tt.dir, got, err, tt.want, older)
		}
	}
	// The older one resumed and written to since: it is the latest used.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(Dir(base), older+".jsonl"), later, later); err != nil {
		t.Fatal(err)
	}
	if got, _, err := LatestIn(base, proj); err != nil || got != older {
		t.Errorf("after the older session was used again: LatestIn = %q, %v; want %q", got, err, older)
	}
}

// Resolve takes an id or a unique start of one; a start several ids
// share is an error naming them; one nobody has comes back unchanged; a
// path is no id (CheckID).
func TestResolveTakesAUniqueStart(t *testing.T) {
	base := t.TempDir()
	if err := os.MkdirAll(Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"20261203-102010-ab3c", "20261203-102010-ab4d", "20261204-090000-zz11"} {
		if err := os.WriteFile(filepath.Join(Dir(base), id+".jsonl"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ ref, want, err string }{
		{ref: "20261203-102010-ab3c", want: "20261203-102010-ab3c"},
		{ref: "20261203-102010-ab3", want: "20261203-102010-ab3c"},
		{ref: "20261204", want: "20261204-090000-zz11"},
		{ref: "20261203", err: `2 sessions start with "20261203" (20261203-102010-ab4d, 20261203-102010-ab3c); give more of the id`},
		{ref: "1999", want: "1999"},
		{ref: "", want: ""},
		{ref: "../x", err: `"../x" is not a session id: ` + IDShape},
	} {
		got, err := Resolve(base, tc.ref)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if d := cmp.Diff([2]string{tc.want, tc.err}, [2]string{got, gotErr}); d != "" {
			t.Errorf("Resolve(%q) (-want +got):\n%s", tc.ref, d)
		}
	}
}

// The model a session switched to is what listings show and what a
// resume reads, from the index, its tail, or the file alone.
func TestSetModelIsWhatResumeSees(t *testing.T) {
	base := t.TempDir()
	s, err := Create(base, "a", "/work")
	if err != nil {
		t.Fatal(err)
	}
	s.SetModel("b") // nothing on disk yet: the header says b
	s.Append(text(llm.RoleUser, "one"))
	s.Sync()
	early, err := os.ReadFile(indexPath(base, s.ID)) // before the switch
	if err != nil {
		t.Fatal(err)
	}
	s.SetModel("c") // a record
	s.SetModel("c") // the same again: nothing
	s.Append(text(llm.RoleAssistant, "two"))
	s.Close()
	data, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"type":"model"`); n != 1 || !strings.Contains(string(data), `"model":"b"`) {
		t.Errorf("file has %d model records, want 1 and the header's b:\n%s", n, data)
	}
	listed := func(what string) {
		t.Helper()
		list, err := List(base)
		if err != nil || len(list) != 1 || list[0].Model != "c" {
			t.Errorf("%s: List = %+v, %v; want model c", what, list, err)
		}
	}
	listed("index")
	if err := os.WriteFile(indexPath(base, s.ID), early, 0o600); err != nil {
		t.Fatal(err)
	}
	listed("the index and the file's tail")
	if err := os.RemoveAll(IndexDir(base)); err != nil {
		t.Fatal(err)
	}
	listed("rebuilt from the file")
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Model() != "c" {
		t.Errorf("Open: Model() = %q, want c", r.Model())
	}
}

// PictureFree counts the leading messages with no picture or document,
// as they are appended and when a session is opened again.
func TestPictureFree(t *testing.T) {
	base := t.TempDir()
	s, _ := Create(base, "m", "/w")
	picture := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockImage, Images: []llm.Image{{MediaType: "image/png", Data: "AAAA"}}}}}
	var got []int
	for _, m := range []llm.Message{text(llm.RoleUser, "a"), text(llm.RoleAssistant, "b"), picture, text(llm.RoleAssistant, "c")} {
		s.Append(m)
		got = append(got, s.PictureFree())
	}
	if want := []int{1, 2, 2, 2}; !cmp.Equal(got, want) {
		t.Errorf("PictureFree after each append = %v, want %v", got, want)
	}
	s.Close()
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := r.PictureFree(); n != 2 {
		t.Errorf("reopened: PictureFree = %d, want 2", n)
	}
}
