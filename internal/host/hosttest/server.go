// Package hosttest has what tests of the session host and its
// front-ends share: a loopback Anthropic Messages server that plays
// scripted replies and records the requests it was sent.
package hosttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/permission"
)

// Reply is one scripted model answer: text, or a bash tool call.
type Reply struct {
	Text string
	Bash string // a command: the answer is a tool call
	// Hold, when set, keeps the answer back until it is closed.
	Hold chan struct{}
}

// ModelServer is a loopback Anthropic Messages endpoint playing replies
// in order. It records every request and says on got when one arrives.
type ModelServer struct {
	*httptest.Server
	mu      sync.Mutex
	replies []Reply
	reqs    []Request
	got     chan int // the number of each request, as it arrives
}

// Request is what the model was sent: each message's role and its
// blocks, reduced to what a test compares.
type Request struct {
	Messages []Message
}

type Message struct {
	Role   string
	Blocks []string // "text: …", "tool_use: bash", "tool_result: …"
}

// NewModelServer starts the server for the test.
func NewModelServer(t testing.TB, replies ...Reply) *ModelServer {
	s := &ModelServer{replies: replies, got: make(chan int, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			fmt.Fprint(w, `{"data":[{"id":"claude-one","type":"model"}],"has_more":false}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var raw struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &raw); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req Request
		for _, m := range raw.Messages {
			req.Messages = append(req.Messages, Message{Role: m.Role, Blocks: blocks(m.Content)})
		}
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, req)
		var rep Reply
		if n < len(s.replies) {
			rep = s.replies[n]
		} else {
			rep = Reply{Text: fmt.Sprintf("unscripted answer %d", n+1)}
		}
		s.mu.Unlock()
		s.got <- n + 1
		if rep.Hold != nil {
			select {
			case <-rep.Hold:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude-one","usage":{"input_tokens":10,"output_tokens":1}}}`)
		stop := "end_turn"
		if rep.Bash != "" {
			input, _ := json.Marshal(map[string]string{"command": rep.Bash})
			quoted, _ := json.Marshal(string(input))
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_%d","name":"bash","input":{}}}`, n+1))
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(quoted)+`}}`)
			stop = "tool_use"
		} else {
			quoted, _ := json.Marshal(rep.Text)
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(quoted)+`}}`)
		}
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+stop+`"},"usage":{"output_tokens":5}}`)
		ev("message_stop", `{"type":"message_stop"}`)
	}))
	t.Cleanup(s.Close)
	return s
}

// blocks reduces a message's content (a string or a block list).
func blocks(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{"text: " + s}
	}
	var bs []struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		Name      string          `json:"name"`
		Content   json.RawMessage `json:"content"`
		ToolUseID string          `json:"tool_use_id"`
	}
	json.Unmarshal(raw, &bs)
	var out []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			out = append(out, "text: "+b.Text)
		case "tool_use":
			out = append(out, "tool_use: "+b.Name)
		case "tool_result":
			var c string
			if json.Unmarshal(b.Content, &c) != nil {
				var parts []struct{ Text string }
				json.Unmarshal(b.Content, &parts)
				for _, p := range parts {
					c += p.Text
				}
			}
			out = append(out, "tool_result: "+strings.TrimSpace(c))
		default:
			out = append(out, b.Type)
		}
	}
	return out
}

// Requests are the requests so far.
func (s *ModelServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// WaitRequest waits for the n-th request to arrive.
func (s *ModelServer) WaitRequest(t testing.TB, n int) {
	t.Helper()
	for got := range s.got {
		if got >= n {
			return
		}
	}
}

// Options are app options for a session on fresh directories with its
// model at s, no extensions or MCP servers, and tools allowed.
func (s *ModelServer) Options(t testing.TB) app.Options {
	env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": s.URL}
	return app.Options{BaseDir: t.TempDir(), WorkDir: t.TempDir(), Model: "anthropic/claude-one",
		Getenv: func(k string) string { return env[k] }, NoExtensions: true, NoMCP: true, Version: "test",
		PermissionMode: permission.Bypass}
}
