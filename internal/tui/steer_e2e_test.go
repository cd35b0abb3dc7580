package tui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTUISteersMidTurn: in the real terminal UI, words typed while a
// tool call runs reach the model in the turn's next request — checked at
// a loopback Anthropic server — after the tool's result, and the turn is
// not restarted: two requests, the prompt sent once (issue 24, item 3).
func TestTUISteersMidTurn(t *testing.T) {
	e := newE2E(t, "")
	if !filepath.IsAbs(e.argv[0]) || filepath.Base(e.argv[0]) != "synaps" {
		t.Skip("needs the synaps binary")
	}
	gate := filepath.Join(e.tmp, "gate")
	var mu sync.Mutex
	var requests [][]string // per request, each message as role: blocks
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			fmt.Fprint(w, `{"data":[{"id":"claude-q"}],"has_more":false}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Role    string
				Content json.RawMessage
			}
		}
		json.Unmarshal(body, &req)
		var msgs []string
		for _, m := range req.Messages {
			var blocks []struct{ Type, Text, Name string }
			json.Unmarshal(m.Content, &blocks)
			line := m.Role + ":"
			for _, b := range blocks {
				switch b.Type {
				case "text":
					line += " text=" + b.Text
				case "tool_use":
					line += " tool_use=" + b.Name
				default:
					line += " " + b.Type
				}
			}
			msgs = append(msgs, line)
		}
		mu.Lock()
		n := len(requests)
		requests = append(requests, msgs)
		mu.Unlock()
		if n == 0 {
			cmd, _ := json.Marshal(map[string]string{"command": "while [ ! -e " + gate + " ]; do sleep 0.05; done; echo gate-open"})
			anthropicToolCall(w, "bash", string(cmd))
			return
		}
		anthropicAnswer(w, fmt.Sprintf("answer-%d", n+1), `"input_tokens":10`)
	}))
	defer srv.Close()

	bin, _ := exec.LookPath("tmux")
	e.env = append(e.env, "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+srv.URL)
	argv := append(append([]string(nil), e.argv...), "anthropic/claude-q", "--no-extensions")
	e.tmux = startTmuxSized(t, bin, e.tmp, e.work, 110, 40, e.env, argv)
	e.waitFor("the prompt", contains("Ask anything"))

	e.send("run the slow check")
	e.waitFor("the tool call running", contains("bash"), contains("thinking"))
	e.send("then summarise it")
	e.waitFor("the steering shown", contains("queued › then summarise it · joins the turn at its next step"))
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the answer", contains("answer-2"), contains("steered into the turn"), absent("queued ›"))

	mu.Lock()
	got := requests
	mu.Unlock()
	want := [][]string{
		{"user: text=run the slow check"},
		{"user: text=run the slow check", "assistant: tool_use=bash", "user: tool_result text=then summarise it"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests at the model (-want +got):\n%s", diff)
	}
}

// anthropicToolCall streams an answer that calls tool with input (JSON).
func anthropicToolCall(w http.ResponseWriter, tool, input string) {
	w.Header().Set("Content-Type", "text/event-stream")
	quoted, _ := json.Marshal(input)
	ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"x","usage":{"input_tokens":10,"output_tokens":1}}}`)
	ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"`+tool+`","input":{}}}`)
	ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(quoted)+`}}`)
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}}`)
	ev("message_stop", `{"type":"message_stop"}`)
}
