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

	"github.com/google/go-cmp/cmp"
)

// TestTUITypedDuringTurnIsItsOwnMessage: what the user sends while a turn
// runs is queued, shown as queued, and reaches the model as a user turn
// of its own — not joined to the message before or after it (issue 23,
// item 6). The loopback Anthropic server holds the first answer until the
// test has typed, and records the user turns of every request.
func TestTUITypedDuringTurnIsItsOwnMessage(t *testing.T) {
	e := newE2E(t, "")
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	release := make(chan struct{})
	var releaseOnce sync.Once
	let := func() { releaseOnce.Do(func() { close(release) }) }
	defer let()
	var mu sync.Mutex
	var requests [][]string // per request, the text of each user turn
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
		var users []string
		for _, m := range req.Messages {
			if m.Role == "user" {
				users = append(users, userText(m.Content))
			}
		}
		mu.Lock()
		n := len(requests)
		requests = append(requests, users)
		mu.Unlock()
		if n == 0 {
			<-release
		}
		anthropicAnswer(w, fmt.Sprintf("answer-%d", n+1), `"input_tokens":10`)
	}))
	defer srv.Close()

	bin, _ := exec.LookPath("tmux")
	e.env = append(e.env, "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+srv.URL)
	argv := append(append([]string(nil), e.argv...), "anthropic/claude-q", "--no-extensions")
	e.tmux = startTmuxSized(t, bin, e.tmp, e.work, 110, 40, e.env, argv)
	e.waitFor("the prompt", contains("Ask anything"))

	e.send("show me markdown again")
	e.waitFor("the turn running", contains("thinking"))
	e.send("compact")
	e.waitFor("the message queued", contains("queued › compact"), absent("still working"))
	e.send("and a third")
	e.waitFor("both queued", contains("queued › compact"), contains("queued › and a third"))
	let()
	e.waitFor("every answer", contains("answer-1"), contains("answer-2"), contains("answer-3"), absent("queued ›"))

	mu.Lock()
	got := requests
	mu.Unlock()
	want := [][]string{
		{"show me markdown again"},
		{"show me markdown again", "compact"},
		{"show me markdown again", "compact", "and a third"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("user turns the model received (-want +got):\n%s", diff)
	}
}

// userText is the text of a user message's content: a string, or the
// text blocks of a block list, joined.
func userText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
