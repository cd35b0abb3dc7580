package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// marker is a cache breakpoint as the body carries it.
const marker = `,"cache_control":{"type":"ephemeral"}`

// Prompt caching at a loopback Anthropic server (issue 15 item 1): a
// five-message session, each message making a tool call, with a
// before_message injector and an on_session_start one. Every request
// carries at most four breakpoints — the last tool, the system prompt,
// the previous request's last message and this request's last message —
// and the prompt up to the last breakpoint of request N is sent again,
// byte for byte, at the start of request N+1 (only the moving markers
// move).
func TestPromptCachePrefixIsByteStable(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "ctx", []string{"privacy.llm_content", "session.lifecycle"},
		[]map[string]any{{"hook": "before_message"}, {"hook": "on_session_start"}},
		map[string]string{"hook:before_message": `{"action":"inject","content":"TODAY-IS-TUESDAY"}`,
			"hook:on_session_start": `{"action":"inject","content":"PROJECT-FACTS"}`})
	const turns = 5
	var streams []string
	for i := 0; i < turns; i++ {
		streams = append(streams, anthropicToolStream(`{"command":"echo hi"}`), anthropicTextStream(fmt.Sprintf("answer %d", i)))
	}
	rp := &replay{streams: streams}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	work := t.TempDir()
	reg := tool.NewRegistry()
	for _, bt := range builtin.All(builtin.Options{WorkDir: work}) {
		reg.Add(bt)
	}
	host := extension.NewHost(extension.Options{BaseDir: base, Registry: reg, Version: "test"})
	if err := host.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer host.Shutdown()
	sess, err := session.Create(base, "anthropic/test", work)
	if err != nil {
		t.Fatal(err)
	}
	a := New(Config{Provider: anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL}), Model: "claude-test",
		System: "You are synaps.", Tools: reg, Hooks: host, Session: sess})
	defer a.End(context.Background())
	for i := 0; i < turns; i++ {
		if err := a.Send(context.Background(), fmt.Sprintf("message %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(rp.bodies) != 2*turns {
		t.Fatalf("%d requests, want %d", len(rp.bodies), 2*turns)
	}

	prevLast := -1 // the index of the previous request's last message
	for n, body := range rp.bodies {
		var req struct {
			System   []map[string]any `json:"system"`
			Tools    []map[string]any `json:"tools"`
			Messages []struct {
				Content []map[string]any `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatalf("request %d is not JSON: %v\n%s", n, err, body)
		}
		// Where the breakpoints are.
		var at []string
		for i, tl := range req.Tools {
			if tl["cache_control"] != nil {
				at = append(at, fmt.Sprintf("tool %d", i))
			}
		}
		for i, b := range req.System {
			if b["cache_control"] != nil {
				at = append(at, fmt.Sprintf("system %d", i))
			}
		}
		for i, m := range req.Messages {
			for j, b := range m.Content {
				if b["cache_control"] != nil {
					at = append(at, fmt.Sprintf("message %d block %d", i, j))
				}
			}
		}
		last := len(req.Messages) - 1
		want := []string{fmt.Sprintf("tool %d", len(req.Tools)-1), "system 0"}
		if prevLast >= 0 {
			want = append(want, fmt.Sprintf("message %d block %d", prevLast, len(req.Messages[prevLast].Content)-1))
		}
		want = append(want, fmt.Sprintf("message %d block %d", last, len(req.Messages[last].Content)-1))
		if strings.Join(at, ", ") != strings.Join(want, ", ") {
			t.Errorf("request %d: breakpoints at %v; want %v", n, at, want)
		}
		if c := strings.Count(body, marker); c > 4 || c != len(want) {
			t.Errorf("request %d: %d cache_control markers; want %d (at most 4)", n, c, len(want))
		}
		prevLast = last
		if !strings.Contains(body, "TODAY-IS-TUESDAY") || !strings.Contains(body, "PROJECT-FACTS") {
			t.Errorf("request %d lacks the injects", n)
		}
	}
	// Every user message keeps the inject it was first sent with.
	if c := strings.Count(rp.bodies[len(rp.bodies)-1], "TODAY-IS-TUESDAY"); c != turns {
		t.Errorf("the last request carries %d injects; want one per user message, %d", c, turns)
	}

	for n := 0; n+1 < len(rp.bodies); n++ {
		cur, next := []byte(rp.bodies[n]), []byte(rp.bodies[n+1])
		// The cached prefix of request n: everything up to and including
		// its last message (the last breakpoint), without the final "]}".
		cached := cur[:len(cur)-len("]}")]
		// Byte for byte up to the earlier moving breakpoint of request
		// n: tools and system with their fixed breakpoints, and every
		// message before.
		moving := bytes.Index(cached[bytes.Index(cached, []byte(`"messages":[`)):], []byte(marker)) + bytes.Index(cached, []byte(`"messages":[`))
		upTo := bytes.LastIndex(cached[:moving], []byte(`{"role":`))
		if !bytes.HasPrefix(next, cached[:upTo]) {
			t.Errorf("request %d does not start with request %d's bytes before its moving breakpoints:\n%s\n---\n%s", n+1, n, cached[:upTo], next)
		}
		// And all of it, once the moving markers are taken out of both.
		strip := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(marker), nil) }
		if !bytes.HasPrefix(strip(next[upTo:]), strip(cached[upTo:])) {
			t.Errorf("request %d does not repeat request %d's cached prefix:\n%s\n---\n%s", n+1, n, cached, next)
		}
	}
}
