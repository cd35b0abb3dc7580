package hook

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
)

// slowLink blocks every call after delay, or when its deadline comes
// first it is a fault.
type slowLink struct{ delay time.Duration }

func (l slowLink) ID() string              { return "slow" }
func (l slowLink) InputFault(error) string { return "" }
func (l slowLink) Gone() string            { return "" }
func (l slowLink) Handle(ctx context.Context, _ contract.HookSpec, _ *Event, _ json.RawMessage) (Result, error) {
	select {
	case <-time.After(l.delay):
		return Result{Action: contract.ActionBlock, Reason: "slow says no"}, nil
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// TestEntryTimeout: an entry's own deadline replaces the chain's, so a
// link that brings a longer one (a Claude command hook) is waited for.
func TestEntryTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entry   time.Duration
		blocked bool
	}{
		{"the chain's deadline ends a slow link (fail-open: the call runs)", 0, false},
		{"the entry's longer deadline waits for it", time.Minute, true},
	} {
		c := NewChain(Options{Timeout: 20 * time.Millisecond})
		c.Set(Table{contract.HookBeforeToolCall: {{Link: slowLink{300 * time.Millisecond}, Subs: []Subscription{{Hook: contract.HookBeforeToolCall}}, Timeout: tc.entry}}})
		d := c.BeforeToolCall(context.Background(), "bash", "bash", json.RawMessage(`{}`), "s", nil)
		if d.Blocked != tc.blocked {
			t.Errorf("%s: blocked %v, want %v (%+v)", tc.name, d.Blocked, tc.blocked, d)
		}
	}
}
