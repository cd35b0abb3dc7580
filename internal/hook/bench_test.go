package hook

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
)

// benchLink answers at once, in process: what is left to measure is the
// chain's own cost per call.
type benchLink struct{ id string }

func (l benchLink) ID() string              { return l.id }
func (l benchLink) InputFault(error) string { return "" }
func (l benchLink) Gone() string            { return "" }
func (l benchLink) Handle(context.Context, contract.HookSpec, *Event, json.RawMessage) (Result, error) {
	return Result{Action: contract.ActionContinue}, nil
}

func benchChain(n int) *Chain {
	c := NewChain(Options{})
	t := Table{}
	for i := range n {
		t[contract.HookBeforeToolCall] = append(t[contract.HookBeforeToolCall], &Entry{Link: benchLink{id: string(rune('a' + i))}, Subs: []Subscription{{Hook: contract.HookBeforeToolCall, Tool: "bash"}}})
	}
	c.Set(t)
	return c
}

// BenchmarkChainBeforeToolCall: the chain's own cost for one call through
// five in-process links (no report asked for).
func BenchmarkChainBeforeToolCall(b *testing.B) {
	c := benchChain(5)
	input := json.RawMessage(`{"command":"echo hi"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c.BeforeToolCall(ctx, "bash", "bash", input, "s", nil)
	}
}
