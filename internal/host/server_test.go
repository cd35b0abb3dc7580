package host

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/permission"
)

// reply is one scripted model answer: text, or a bash tool call.
type reply struct {
	text string
	bash string // a command: the answer is a tool call
	// hold, when set, keeps the answer back until it is closed.
	hold chan struct{}
}

// modelServer is a loopback Anthropic Messages endpoint playing replies
// in order. It records every request and says on got when one arrives.
type modelServer struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply
	reqs    []request
	got     chan int // the number of each request, as it arrives
}

// request is what the model was sent: each message's role and its
// blocks, reduced to what a test compares.
type request struct {
	Messages []message
}

type message struct {
	Role   string
	Blocks []string // "text: …", "tool_use: bash", "tool_result: …"
}

func newModelServer(t *testing.T, replies ...reply) *modelServer {
	s := &modelServer{replies: replies, got: make(chan int, 100)}
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
		var req request
		for _, m := range raw.Messages {
			req.Messages = append(req.Messages, message{Role: m.Role, Blocks: blocks(m.Content)})
		}
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, req)
		var rep reply
		if n < len(s.replies) {
			rep = s.replies[n]
		} else {
			rep = reply{text: fmt.Sprintf("unscripted answer %d", n+1)}
		}
		s.mu.Unlock()
		s.got <- n + 1
		if rep.hold != nil {
			select {
			case <-rep.hold:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude-one","usage":{"input_tokens":10,"output_tokens":1}}}`)
		stop := "end_turn"
		if rep.bash != "" {
			input, _ := json.Marshal(map[string]string{"command": rep.bash})
			quoted, _ := json.Marshal(string(input))
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_%d","name":"bash","input":{}}}`, n+1))
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(quoted)+`}}`)
			stop = "tool_use"
		} else {
			quoted, _ := json.Marshal(rep.text)
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

func (s *modelServer) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]request(nil), s.reqs...)
}

// waitRequest waits for the n-th request to arrive.
func (s *modelServer) waitRequest(t *testing.T, n int) {
	t.Helper()
	for got := range s.got {
		if got >= n {
			return
		}
	}
}

// openSession opens a session on a fresh base and work directory, with
// the model at srv, no extensions, and tools allowed.
func openSession(t *testing.T, h *Host, srv *modelServer) *Session {
	t.Helper()
	env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": srv.URL}
	s, err := h.Open(context.Background(), app.Options{BaseDir: t.TempDir(), WorkDir: t.TempDir(), Model: "anthropic/claude-one",
		Getenv: func(k string) string { return env[k] }, NoExtensions: true, NoMCP: true, Version: "test",
		PermissionMode: permission.Bypass})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
