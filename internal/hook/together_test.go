package hook

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/contract"
)

// meetLink answers only once every link sharing its meeting has been
// asked, or, after a while alone, with a context saying so: links asked
// at once all meet; asked in turn, each waits alone but the last.
type meetLink struct {
	id, answer string
	m          *meeting
}

type meeting struct {
	mu     sync.Mutex
	want   int
	asked  int
	all    chan struct{}
	closed bool
}

func newMeeting(n int) *meeting { return &meeting{want: n, all: make(chan struct{})} }

func (l meetLink) ID() string              { return l.id }
func (l meetLink) InputFault(error) string { return "" }
func (l meetLink) Gone() string            { return "" }
func (l meetLink) Handle(ctx context.Context, _ contract.HookSpec, _ *Event, _ json.RawMessage) (Result, error) {
	m := l.m
	m.mu.Lock()
	m.asked++
	if m.asked == m.want && !m.closed {
		m.closed = true
		close(m.all)
	}
	m.mu.Unlock()
	select {
	case <-m.all:
		return DecodeResult(json.RawMessage(l.answer))
	case <-time.After(300 * time.Millisecond):
		return Result{Action: contract.ActionContinue, Context: l.id + " alone"}, nil
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// TestAfterToolCallTogether: after_tool_call asks its links at once when
// none may change the output, applying their answers in chain order; one
// link that may replace the output (or withhold it when it fails) puts
// the chain back in turn, so later links see what will be kept.
func TestAfterToolCallTogether(t *testing.T) {
	tests := []struct {
		name         string
		transform    bool // the second link may replace the output
		failClosed   bool // the second link withholds the output if it fails
		wantContexts []Inject
		wantStopBy   string
	}{
		{
			name:         "no link can change the output: asked together, answers in order, the first stop counts",
			wantContexts: []Inject{{"a", "one"}, {"b", "two"}},
			wantStopBy:   "b",
		},
		{
			name:         "a link may replace the output: asked in turn",
			transform:    true,
			wantContexts: []Inject{{"a", "a alone"}, {"b", "b alone"}, {"c", "three"}},
			wantStopBy:   "c",
		},
		{
			name:         "a link fails closed: asked in turn",
			failClosed:   true,
			wantContexts: []Inject{{"a", "a alone"}, {"b", "b alone"}, {"c", "three"}},
			wantStopBy:   "c",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMeeting(3)
			sub := []Subscription{{Hook: contract.HookAfterToolCall}}
			c := NewChain(Options{})
			c.Set(Table{contract.HookAfterToolCall: {
				{Link: meetLink{"a", `{"action":"continue","context":"one"}`, m}, Subs: sub},
				{Link: meetLink{"b", `{"action":"stop","reason":"enough","context":"two"}`, m}, Subs: sub, Transform: tt.transform, FailClosed: tt.failClosed},
				{Link: meetLink{"c", `{"action":"stop","reason":"too late","context":"three"}`, m}, Subs: sub},
			}})
			d := c.AfterToolCall(context.Background(), "bash", "bash", json.RawMessage(`{"command":"ls"}`), "out", false, "s")
			if diff := cmp.Diff(tt.wantContexts, d.Contexts); diff != "" {
				t.Errorf("contexts (-want +got):\n%s", diff)
			}
			if d.StoppedBy != tt.wantStopBy {
				t.Errorf("stopped by %q, want %q", d.StoppedBy, tt.wantStopBy)
			}
		})
	}
}
