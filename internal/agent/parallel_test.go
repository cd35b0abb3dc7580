package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
)

// lookPlugin is an extension with one read-only tool, look, whose calls
// and before_tool_call hooks answer only when two are in flight at once
// (the fake's rendezvous mode): a call made alone answers "alone".
func lookPlugin(t *testing.T, base string, results map[string]string) {
	res := map[string]json.RawMessage{"tool:look": json.RawMessage(`{"output":"met"}`)}
	for k, v := range results {
		res[k] = json.RawMessage(v)
	}
	exttest.Plugin(t, base, "slow", map[string]any{
		"permissions": []string{"tools.register", "tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call", "tool": "slow_look"}},
	}, exttest.Spec{
		Init:    json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"look","description":"looks","input_schema":{"type":"object"},"read_only":true}]}}`),
		Results: res,
		Modes:   map[string]string{"tool:look": "rendezvous:2", "hook:before_tool_call": "rendezvous:2"},
	})
}

// Two read-only calls of one turn reach the extension at the same time,
// their before_tool_call hooks and their tool calls alike, and their
// results go back in the model's order.
func TestParallelReadOnlyCallsOverlap(t *testing.T) {
	base := t.TempDir()
	lookPlugin(t, base, nil)
	r := newRig(t, base, `{"tool_calls":[{"name":"slow_look","input":{"n":1}},{"name":"slow_look","input":{"n":2}}]}
{"text":"ok"}
`, nil)
	if err := r.agent.Send(context.Background(), "look twice"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range r.toolResults() {
		got = append(got, b.ToolUseID+" "+b.Content)
	}
	want := []string{"toolu_script_1_1 met", "toolu_script_1_2 met"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
}

// Calls that may change things run one at a time, in the model's order,
// and a read between them waits for the one before it: each call ends
// before the next starts.
func TestParallelChangingCallsKeepOrder(t *testing.T) {
	r := newRig(t, t.TempDir(), `{"tool_calls":[{"name":"bash","input":{"command":"sleep 0.3; echo one > f.txt"}},{"name":"read","input":{"path":"f.txt"}},{"name":"write","input":{"path":"f.txt","content":"two\n"}},{"name":"read","input":{"path":"f.txt"}}]}
{"text":"ok"}
`, nil)
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, e := range r.events {
		if e.Type == EventToolStart || e.Type == EventToolEnd {
			seq = append(seq, fmt.Sprintf("%s %s", e.Type, e.Tool.ID))
		}
	}
	var want []string
	for i := 1; i <= 4; i++ {
		want = append(want, fmt.Sprintf("tool_start toolu_script_1_%d", i), fmt.Sprintf("tool_end toolu_script_1_%d", i))
	}
	if d := cmp.Diff(want, seq); d != "" {
		t.Errorf("tool events (-want +got):\n%s", d)
	}
	res := r.toolResults()
	if len(res) != 4 || !strings.Contains(res[1].Content, "one") || !strings.Contains(res[3].Content, "two") {
		t.Errorf("results %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(r.work, "f.txt")); string(b) != "two\n" {
		t.Errorf("f.txt = %q, want the write's, which came last", b)
	}
}

// serialAsker notes whether two questions were ever open at once: the
// first waits (up to a second) for a second to arrive, which it only can
// if questions are not serialised.
type serialAsker struct {
	mu         sync.Mutex
	open       int
	overlap    bool
	asked      int
	arrived    chan struct{}
	arriveOnce sync.Once
}

func (s *serialAsker) Confirm(ctx context.Context, tool string, msgs []hook.Confirm) bool {
	return s.Ask(ctx, Question{Tool: tool, Messages: msgs}) != AnswerNo
}

func (s *serialAsker) Ask(context.Context, Question) Answer {
	s.mu.Lock()
	s.open++
	s.asked++
	first := s.asked == 1
	if s.open > 1 {
		s.overlap = true
		s.arriveOnce.Do(func() { close(s.arrived) })
	}
	s.mu.Unlock()
	if first {
		select {
		case <-s.arrived:
		case <-time.After(time.Second):
		}
	}
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
	return AnswerYes
}

// Calls running side by side ask the user one at a time.
func TestParallelQuestionsAreSerialised(t *testing.T) {
	base := t.TempDir()
	lookPlugin(t, base, map[string]string{"hook:before_tool_call": `{"action":"confirm","message":"look?"}`})
	a := &serialAsker{arrived: make(chan struct{})}
	r := newRig(t, base, `{"tool_calls":[{"name":"slow_look","input":{"n":1}},{"name":"slow_look","input":{"n":2}}]}
{"text":"ok"}
`, a)
	withPolicy(t, r, permission.Default, "")
	if err := r.agent.Send(context.Background(), "look twice"); err != nil {
		t.Fatal(err)
	}
	if a.overlap || a.asked != 2 {
		t.Errorf("asked %d times, two questions open at once: %v", a.asked, a.overlap)
	}
	for _, b := range r.toolResults() {
		if b.Content != "met" {
			t.Errorf("result %s: %q", b.ToolUseID, b.Content)
		}
	}
}

// The read tool's picture reaches the model as an image of the tool
// result (issue 15 item 5); the session keeps it, so a resumed
// conversation sends it again.
func TestReadImageReachesTheModel(t *testing.T) {
	r := newRig(t, t.TempDir(), `{"tool_calls":[{"name":"read","input":{"path":"dot.png"}}]}
{"text":"a dot"}
`, nil)
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	if err := os.WriteFile(filepath.Join(r.work, "dot.png"), []byte(png), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.agent.Send(context.Background(), "what is in dot.png?"); err != nil {
		t.Fatal(err)
	}
	if len(r.model.reqs) != 2 {
		t.Fatalf("%d requests", len(r.model.reqs))
	}
	msgs := r.model.reqs[1].Messages
	last := msgs[len(msgs)-1]
	if len(last.Content) != 1 || last.Content[0].Type != llm.BlockToolResult || len(last.Content[0].Images) != 1 || last.Content[0].Images[0].MediaType != "image/png" {
		t.Fatalf("the second request's last message: %+v", last)
	}
}

// Pictures sent with a message follow its text as image blocks.
func TestSendWithImages(t *testing.T) {
	r := newRig(t, t.TempDir(), `{"text":"a dot"}
`, nil)
	im := llm.Image{MediaType: "image/png", Data: tinyPNG}
	if err := r.agent.Send(context.Background(), "what is this?", im); err != nil {
		t.Fatal(err)
	}
	got := r.model.reqs[0].Messages[0].Content
	want := []llm.Block{{Type: llm.BlockText, Text: "what is this?"}, {Type: llm.BlockImage, Images: []llm.Image{im}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("user message (-want +got):\n%s", d)
	}
}
