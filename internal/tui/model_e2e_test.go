package tui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestTUISlashModelSwitches: /model lists the models the configured
// provider serves (asked at its /v1/models), /model NAME switches, and the next request — seen at a
// loopback Anthropic server — asks for the new model; /cost shows the
// session's usage (issue 23, item 4).
func TestTUISlashModelSwitches(t *testing.T) {
	e := newE2E(t, "")
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	var mu sync.Mutex
	var models []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
			fmt.Fprint(w, `{"data":[{"id":"claude-first"},{"id":"claude-second"}],"has_more":false}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct{ Model string }
		json.Unmarshal(body, &req)
		mu.Lock()
		models = append(models, req.Model)
		mu.Unlock()
		anthropicAnswer(w, "answered-by-"+req.Model, `"input_tokens":40,"cache_read_input_tokens":2`)
	}))
	defer srv.Close()

	bin, _ := exec.LookPath("tmux")
	e.env = append(e.env, "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+srv.URL)
	argv := append(append([]string(nil), e.argv...), "anthropic/claude-first", "--no-extensions")
	e.tmux = startTmuxSized(t, bin, e.tmp, e.work, 110, 40, e.env, argv)
	e.waitFor("the prompt", contains("Ask anything"), contains("anthropic/claude-first"))

	e.send("hello")
	e.waitFor("the first answer", contains("answered-by-claude-first"))
	// /model alone opens the picker over the served models; esc closes
	// it, and /model NAME switches.
	e.send("/model")
	e.waitFor("the model list",
		matches(`\* anthropic/claude-first\s+Anthropic at http://127\.0\.0\.1`),
		matches(`  anthropic/claude-second\s+Anthropic at http://127\.0\.0\.1`))
	e.keys("Escape")
	e.waitFor("the picker closed", absent("models · ↑/↓"))
	e.send("/model anthropic/claude-second")
	e.waitFor("the switch", contains("model: anthropic/claude-second (was anthropic/claude-first)"))
	e.send("again")
	e.waitFor("the second answer", contains("answered-by-claude-second"))
	e.send("/cost")
	e.waitFor("the usage", contains("requests: 2"), contains("input tokens: 84 (cache: 4 read, 0 written)"), contains("output tokens: 10"))

	mu.Lock()
	got := strings.Join(models, ",")
	mu.Unlock()
	if got != "claude-first,claude-second" {
		t.Errorf("models asked for at the server: %s; want claude-first,claude-second", got)
	}
}

// anthropicAnswer streams one text answer in the Anthropic Messages SSE
// format, as the loopback model servers of these tests do; usage is the
// message_start usage fields besides output_tokens.
func anthropicAnswer(w http.ResponseWriter, text, usage string) {
	w.Header().Set("Content-Type", "text/event-stream")
	quoted, _ := json.Marshal(text)
	ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"x","usage":{`+usage+`,"output_tokens":1}}}`)
	ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(quoted)+`}}`)
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`)
	ev("message_stop", `{"type":"message_stop"}`)
}
