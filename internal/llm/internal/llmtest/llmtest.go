// Package llmtest holds what the provider tests share: a fake HTTP API
// that replays recorded streams in small flushed chunks, an event recorder
// and a JSON comparison.
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
)

// Reply is one canned HTTP response of the fake API.
type Reply struct {
	Status int               // 0 means 200 with Content-Type text/event-stream
	Header map[string]string // extra response headers
	Body   string            // written Chunk bytes at a time, flushed after each
	Hold   bool              // after Body, keep the stream open until the client leaves
}

// Request is one request the fake API received.
type Request struct {
	Path   string
	Header http.Header
	Body   string
}

// Chunk is how many bytes the fake writes before each flush: small and odd,
// so that event, line and even "\r\n" boundaries fall inside reads.
const Chunk = 7

// Server replays replies in order, one per request, and records requests.
type Server struct {
	*httptest.Server
	t       testing.TB
	replies []Reply
	mu      sync.Mutex // guards got
	got     []Request
}

// NewServer starts a fake API that answers the i-th request with
// replies[i]; a request beyond them fails the test. It is closed when the
// test ends.
func NewServer(t testing.TB, replies ...Reply) *Server {
	s := &Server{t: t, replies: replies}
	release := make(chan struct{})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, release)
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(release) }) // runs first: frees held handlers
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, release chan struct{}) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.got)
	s.got = append(s.got, Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body)})
	s.mu.Unlock()
	if n >= len(s.replies) {
		s.t.Errorf("unexpected request %d (only %d replies scripted)", n+1, len(s.replies))
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	rep := s.replies[n]
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(status)
	rc := http.NewResponseController(w)
	for b := rep.Body; len(b) > 0; {
		k := min(Chunk, len(b))
		if _, err := io.WriteString(w, b[:k]); err != nil {
			return
		}
		rc.Flush()
		b = b[k:]
	}
	if rep.Hold {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.got...)
}

// Fixture returns testdata/name.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Recorder collects events as readable strings, so a test can compare a
// whole sequence with cmp.Diff:
//
//	text Hello
//	thinking Let me see
//	tool_use <id> <name> <input>
//	retry after <delay>: <error>
type Recorder struct{ Events []string }

// On is the onEvent callback.
func (r *Recorder) On(ev llm.Event) {
	var s string
	switch ev.Type {
	case llm.EventText, llm.EventThinking:
		s = string(ev.Type) + " " + ev.Text
	case llm.EventToolUse:
		s = "tool_use " + ev.ToolUse.ID + " " + ev.ToolUse.Name + " " + string(ev.ToolUse.Input)
	case llm.EventRetry:
		s = "retry after " + ev.Delay.String() + ": " + ev.Err.Error()
	default:
		s = "unknown event " + string(ev.Type)
	}
	r.Events = append(r.Events, s)
}

// JSONDiff compares two JSON texts by value and returns cmp.Diff's report.
func JSONDiff(t testing.TB, want, got string) string {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON: %v\n%s", err, want)
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("bad got JSON: %v\n%s", err, got)
	}
	return cmp.Diff(w, g)
}

// UserText is a user message of one text block.
func UserText(text string) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: text}}}
}
