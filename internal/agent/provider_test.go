package agent

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

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/llm/openai"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// The same turn — the model calls bash with arguments split over many
// deltas, the tool runs, its result goes back, the model answers — through
// the real Anthropic and OpenAI-compatible clients, against loopback
// servers that replay streams in the services' documented wire formats,
// written a few bytes at a time.

// splitJSON cuts s into pieces of n bytes: how services stream tool input.
func splitJSON(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

func anthropicToolStream(args string) string {
	var b strings.Builder
	ev := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"usage":{"input_tokens":120,"output_tokens":1}}}`)
	ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	ev("ping", `{"type":"ping"}`)
	ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Running it."}}`)
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"bash","input":{}}}`)
	for _, p := range splitJSON(args, 3) {
		q, _ := json.Marshal(p)
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":`+string(q)+`}}`)
	}
	ev("content_block_stop", `{"type":"content_block_stop","index":1}`)
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":30}}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

func anthropicTextStream(text string) string {
	var b strings.Builder
	ev := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"usage":{"input_tokens":200,"output_tokens":1}}}`)
	ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for _, w := range strings.SplitAfter(text, " ") {
		q, _ := json.Marshal(w)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(q)+`}}`)
	}
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

func openaiToolStream(args string) string {
	var b strings.Builder
	chunk := func(delta, finish string) {
		fmt.Fprintf(&b, `data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n", delta, finish)
	}
	chunk(`{"role":"assistant","content":"Running it."}`, "null")
	chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":""}}]}`, "null")
	for _, p := range splitJSON(args, 3) {
		q, _ := json.Marshal(p)
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+string(q)+`}}]}`, "null")
	}
	chunk(`{}`, `"tool_calls"`)
	b.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":30}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

func openaiTextStream(text string) string {
	var b strings.Builder
	for _, w := range strings.SplitAfter(text, " ") {
		q, _ := json.Marshal(w)
		fmt.Fprintf(&b, `data: {"id":"c2","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":%s},"finish_reason":null}]}`+"\n\n", q)
	}
	b.WriteString(`data: {"id":"c2","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// replay serves the streams in order, a few bytes per flush, and keeps the
// request bodies.
type replay struct {
	mu      sync.Mutex
	streams []string
	bodies  []string
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	i := len(r.bodies)
	r.bodies = append(r.bodies, string(body))
	r.mu.Unlock()
	if i >= len(r.streams) {
		http.Error(w, `{"error":{"type":"invalid_request_error","message":"no more turns"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	s := r.streams[i]
	for len(s) > 0 {
		n := min(7, len(s))
		io.WriteString(w, s[:n])
		w.(http.Flusher).Flush()
		s = s[n:]
	}
}

func TestSameTurnThroughHTTPProviders(t *testing.T) {
	const args = `{"command": "echo provider-\u00e9 > out.txt && cat out.txt"}`
	for _, tc := range []struct {
		name    string
		streams []string
		client  func(url string) llm.Provider
		// resultShape marks the tool result in the second request.
		resultShape string
	}{
		{"anthropic", []string{anthropicToolStream(args), anthropicTextStream("The file says provider-é.")},
			func(url string) llm.Provider { return anthropic.New(anthropic.Config{APIKey: "k", BaseURL: url}) },
			`"type":"tool_result","tool_use_id":"toolu_1"`},
		{"openai", []string{openaiToolStream(args), openaiTextStream("The file says provider-é.")},
			func(url string) llm.Provider { return openai.New(openai.Config{APIKey: "k", BaseURL: url + "/v1"}) },
			`"tool_call_id":"call_1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rp := &replay{streams: tc.streams}
			srv := httptest.NewServer(rp)
			defer srv.Close()
			base, work := t.TempDir(), t.TempDir()
			reg := tool.NewRegistry()
			for _, bt := range builtin.All(builtin.Options{WorkDir: work}) {
				reg.Add(bt)
			}
			sess, err := session.Create(base, tc.name, work)
			if err != nil {
				t.Fatal(err)
			}
			var streamed strings.Builder
			a := New(Config{Provider: tc.client(srv.URL), Model: "test-model", Tools: reg, Session: sess,
				OnEvent: func(e Event) {
					if e.Type == EventText {
						streamed.WriteString(e.Text)
					}
				}})
			if err := a.Send(context.Background(), "write and read a file"); err != nil {
				t.Fatal(err)
			}
			a.End(context.Background())
			if b, _ := os.ReadFile(filepath.Join(work, "out.txt")); string(b) != "provider-é\n" {
				t.Fatalf("out.txt = %q: the tool did not run with the assembled input", b)
			}
			if len(rp.bodies) != 2 || !strings.Contains(rp.bodies[1], tc.resultShape) || !strings.Contains(rp.bodies[1], `provider-é\n`) {
				t.Fatalf("second request lacks the tool result (%s):\n%s", tc.resultShape, rp.bodies[len(rp.bodies)-1])
			}
			if got := streamed.String(); got != "Running it.The file says provider-é." {
				t.Errorf("streamed text = %q", got)
			}
			msgs := sess.Messages()
			if last := msgs[len(msgs)-1]; last.Text() != "The file says provider-é." {
				t.Errorf("last message = %+v", last)
			}
			if u := a.Usage(); u.InputTokens == 0 || u.OutputTokens == 0 {
				t.Errorf("usage not counted: %+v", u)
			}
		})
	}
}
