package agent

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/picture"
	"github.com/synaps-cli/synaps/internal/session"
)

// A 2x2 grey PNG: one the checks pass, so only the fake API refuses it.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAAC0lEQVR4nGNgAAEAAAYAAf6MZ8gAAAAASUVORK5CYII="

// refuser is a fake Anthropic API that refuses every request holding an
// image, as the real one does for a picture it cannot take.
type refuser struct {
	mu     sync.Mutex
	bodies []string
}

func (r *refuser) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.bodies = append(r.bodies, string(body))
	r.mu.Unlock()
	if strings.Contains(string(body), `"type":"image"`) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content.1.image.source.base64: image exceeds 5 MB maximum"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, anthropicTextStream("Seen."))
}

// A request the API refuses for a picture must not brick the session:
// the request is made again with the pictures left out (a note each), in
// the run that attached it and in a later --continue of the session.
func TestRefusedPictureKeepsSessionUsable(t *testing.T) {
	api := &refuser{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	base, work := t.TempDir(), t.TempDir()
	sess, err := session.Create(base, "anthropic/test", work)
	if err != nil {
		t.Fatal(err)
	}
	var notices []string
	cfg := Config{Provider: anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL}), Model: "test", Session: sess,
		OnEvent: func(e Event) {
			if e.Type == EventNotice {
				notices = append(notices, e.Text)
			}
		}}
	a := New(cfg)
	if err := a.Send(context.Background(), "look", llm.Image{MediaType: "image/png", Data: tinyPNG}); err != nil {
		t.Fatalf("the first run failed: %v", err)
	}
	a.End(context.Background())

	// --continue: a new agent on the same session file.
	again, err := session.Open(base, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Session = again
	b := New(cfg)
	if err := b.Send(context.Background(), "and now?"); err != nil {
		t.Fatalf("the resumed run failed: %v (%d requests, notices %q)", err, len(api.bodies), notices)
	}
	b.End(context.Background())

	var refused []bool
	for _, body := range api.bodies {
		refused = append(refused, strings.Contains(body, `"type":"image"`))
	}
	if d := cmp.Diff([]bool{true, false, true, false}, refused); d != "" {
		t.Errorf("requests holding an image (-want +got):\n%s", d)
	}
	if !strings.Contains(api.bodies[1], "a picture is left out: the model API refused a request holding it") {
		t.Errorf("the retried request has no note where the picture was:\n%s", api.bodies[1])
	}
	if len(notices) == 0 || !strings.Contains(notices[0], "refused the request for a picture") {
		t.Errorf("notices = %q", notices)
	}
}

// A request holds at most picture.PerRequest pictures, the newest; the
// older ones are notes, and the session itself is left as it was.
func TestBoundPicturesDropsTheOldest(t *testing.T) {
	var msgs []llm.Message
	for i := 0; i < picture.PerRequest+5; i++ {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockImage, Images: []llm.Image{{MediaType: "image/png", Data: tinyPNG}}}}})
	}
	got := boundPictures(msgs, 0, 0)
	var kinds []llm.BlockType
	for _, m := range got {
		kinds = append(kinds, m.Content[0].Type)
	}
	want := append(slicesRepeat(llm.BlockText, 5), slicesRepeat(llm.BlockImage, picture.PerRequest)...)
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("blocks (-want +got):\n%s", d)
	}
	if !strings.Contains(got[0].Content[0].Text, "one request holds at most 100 pictures") {
		t.Errorf("note = %q", got[0].Content[0].Text)
	}
	if msgs[0].Content[0].Type != llm.BlockImage {
		t.Error("the session's message was changed")
	}
	// By size: two pictures of 15 MB base64 each do not fit 24 MB.
	big := strings.Repeat("A", 15<<20)
	two := []llm.Message{
		{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, Content: "old", Images: []llm.Image{{MediaType: "image/png", Data: big}}}}},
		{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, Content: "new", Images: []llm.Image{{MediaType: "image/png", Data: big}}}}},
	}
	got = boundPictures(two, 0, 0)
	if len(got[0].Content[0].Images) != 0 || len(got[1].Content[0].Images) != 1 || !strings.Contains(got[0].Content[0].Content, "24 MB") {
		t.Errorf("by size: old %d pictures (%q), new %d", len(got[0].Content[0].Images), got[0].Content[0].Content, len(got[1].Content[0].Images))
	}
}

func slicesRepeat(t llm.BlockType, n int) []llm.BlockType {
	out := make([]llm.BlockType, n)
	for i := range out {
		out[i] = t
	}
	return out
}

// BenchmarkBoundPictures is the walk every request makes over a long
// session with no picture: 1500 tool calls and their results.
func BenchmarkBoundPictures(b *testing.B) {
	var msgs []llm.Message
	for range 1500 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "reading"}, {Type: llm.BlockToolUse, ID: "t", Name: "read"}}},
			llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: "t", Content: "a file"}}})
	}
	for _, free := range []int{0, len(msgs)} {
		b.Run(fmt.Sprintf("known-free=%d", free), func(b *testing.B) {
			for b.Loop() {
				if out := boundPictures(msgs, 0, free); &out[0] != &msgs[0] {
					b.Fatal("copied")
				}
			}
		})
	}
}

// Messages known to hold no picture are not looked at, and what is
// after them is bounded as before: with the newest pictures past the
// bound, the same notes replace the oldest whether or not the text
// before them was walked.
func TestBoundPicturesSkipsKnownFree(t *testing.T) {
	msgs := []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "long text"}}}}
	for range picture.PerRequest + 2 {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockImage, Images: []llm.Image{{MediaType: "image/png", Data: "AAAA"}}}}})
	}
	if d := cmp.Diff(boundPictures(msgs, 0, 0), boundPictures(msgs, 0, 1)); d != "" {
		t.Errorf("skipping the text changed the request (-walked +skipped):\n%s", d)
	}
	if got := boundPictures(msgs, 0, 1); got[1].Content[0].Type != llm.BlockText || got[3].Content[0].Type != llm.BlockImage {
		t.Errorf("the two oldest pictures should be notes, the rest kept: %+v", got[1:4])
	}
}
