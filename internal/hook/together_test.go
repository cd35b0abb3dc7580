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

// meetLink counts the calls in flight at once across the links sharing
// its meeting. With wait set it answers only once every one of them has
// been asked (links asked at once all meet; in turn they would wait
// forever, so the chain's deadline ends that case with an error).
type meetLink struct {
	id, answer string
	m          *meeting
	wait       bool
}

type meeting struct {
	mu            sync.Mutex
	want, asked   int
	now, mostOnce int
	all           chan struct{}
}

func newMeeting(n int) *meeting { return &meeting{want: n, all: make(chan struct{})} }

func (l meetLink) ID() string              { return l.id }
func (l meetLink) InputFault(error) string { return "" }
func (l meetLink) Gone() string            { return "" }
func (l meetLink) Handle(ctx context.Context, _ contract.HookSpec, _ *Event, _ json.RawMessage) (Result, error) {
	m := l.m
	m.mu.Lock()
	m.asked++
	m.now++
	m.mostOnce = max(m.mostOnce, m.now)
	if m.asked == m.want {
		close(m.all)
	}
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.now--
		m.mu.Unlock()
	}()
	if l.wait {
		select {
		case <-m.all:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
	}
	return DecodeResult(json.RawMessage(l.answer))
}

// TestAfterToolCallTogether: after_tool_call asks its links at once when
// none may change the output, applying their answers in chain order; one
// link that may replace the output (or withhold it when it fails) puts
// the chain back in turn, so later links see what will be kept.
func TestAfterToolCallTogether(t *testing.T) {
	tests := []struct {
		name       string
		transform  bool // the second link may replace the output
		failClosed bool // the second link withholds the output if it fails
		wantMost   int  // calls in flight at once, at most
	}{
		{name: "no link can change the output: asked together", wantMost: 3},
		{name: "a link may replace the output: asked in turn", transform: true, wantMost: 1},
		{name: "a link fails closed: asked in turn", failClosed: true, wantMost: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			together := tt.wantMost > 1
			m := newMeeting(3)
			sub := []Subscription{{Hook: contract.HookAfterToolCall}}
			// The deadline only ends a case that waits for a meeting
			// that cannot happen; it is not what the case checks.
			c := NewChain(Options{Timeout: 10 * time.Second})
			c.Set(Table{contract.HookAfterToolCall: {
				{Link: meetLink{"a", `{"action":"continue","context":"one"}`, m, together}, Subs: sub},
				{Link: meetLink{"b", `{"action":"stop","reason":"enough","context":"two"}`, m, together}, Subs: sub, Transform: tt.transform, FailClosed: tt.failClosed},
				{Link: meetLink{"c", `{"action":"stop","reason":"too late","context":"three"}`, m, together}, Subs: sub},
			}})
			d := c.AfterToolCall(context.Background(), "bash", "bash", json.RawMessage(`{"command":"ls"}`), "out", false, "s")
			// Either way the answers count in chain order: the contexts
			// before the first stop, and that stop.
			if diff := cmp.Diff([]Inject{{"a", "one"}, {"b", "two"}}, d.Contexts); diff != "" {
				t.Errorf("contexts (-want +got):\n%s", diff)
			}
			if d.StoppedBy != "b" {
				t.Errorf("stopped by %q, want b", d.StoppedBy)
			}
			m.mu.Lock()
			most, asked := m.mostOnce, m.asked
			m.mu.Unlock()
			if most != tt.wantMost {
				t.Errorf("%d calls in flight at once, want %d", most, tt.wantMost)
			}
			// Together, the link after the stop was told of the call too;
			// in turn, the stop ended the chain before it.
			if wantAsked := map[bool]int{true: 3, false: 2}[together]; asked != wantAsked {
				t.Errorf("%d links asked, want %d", asked, wantAsked)
			}
		})
	}
}
