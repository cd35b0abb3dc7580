package hook

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
)

// answerLink answers every event with its raw wire result.
type answerLink struct{ id, raw string }

func (l answerLink) ID() string              { return l.id }
func (l answerLink) InputFault(error) string { return "" }
func (l answerLink) Gone() string            { return "" }
func (l answerLink) Handle(context.Context, contract.HookSpec, *Event, json.RawMessage) (Result, error) {
	return DecodeResult(json.RawMessage(l.raw))
}

// TestStopContextAndConfirmWithInput: the protocol's additions for Claude
// Code's outputs, in the chain: stop ends it and names who stopped;
// context after a tool is collected in order; a confirm may carry a new
// input, which later links judge and the user is asked about; a block
// on before_message and on on_message_complete is a decision.
func TestStopContextAndConfirmWithInput(t *testing.T) {
	ctx := context.Background()
	chain := func(hook string, links ...answerLink) *Chain {
		c := NewChain(Options{})
		var es []*Entry
		for _, l := range links {
			es = append(es, &Entry{Link: l, Subs: []Subscription{{Hook: hook}}})
		}
		c.Set(Table{hook: es})
		return c
	}
	in := json.RawMessage(`{"command":"ls"}`)

	d := chain(contract.HookBeforeToolCall, answerLink{"a", `{"action":"stop","reason":"frozen"}`}, answerLink{"b", `{"action":"block","reason":"never asked"}`}).
		BeforeToolCall(ctx, "bash", "bash", in, "s", nil)
	if !d.Stopped || d.StoppedBy != "a" || d.StopReason != "frozen" || d.Blocked {
		t.Errorf("stop: %+v", d)
	}

	d = chain(contract.HookAfterToolCall, answerLink{"a", `{"action":"continue","context":"one"}`}, answerLink{"b", `{"context":"two"}`}).
		AfterToolCall(ctx, "bash", "bash", in, "out", false, "s")
	if diff := cmp.Diff([]Inject{{"a", "one"}, {"b", "two"}}, d.Contexts); diff != "" {
		t.Errorf("contexts (-want +got):\n%s", diff)
	}

	var seen []string
	judge := recordLink{id: "z", seen: &seen}
	c := NewChain(Options{})
	c.Set(Table{contract.HookBeforeToolCall: {
		{Link: answerLink{"a", `{"action":"confirm","message":"sure?","input":{"command":"ls -la"}}`}, Subs: []Subscription{{Hook: contract.HookBeforeToolCall}}},
		{Link: judge, Subs: []Subscription{{Hook: contract.HookBeforeToolCall}}},
	}})
	d = c.BeforeToolCall(ctx, "bash", "bash", in, "s", yes{})
	if string(d.Input) != `{"command":"ls -la"}` || len(d.Confirms) != 1 || d.Confirms[0].Message != "sure?" || d.Blocked {
		t.Errorf("confirm with input: %+v", d)
	}
	if len(seen) == 0 || seen[len(seen)-1] != `{"command":"ls -la"}` {
		t.Errorf("the link after it judged %q", seen)
	}

	msg := "hi"
	d = chain(contract.HookBeforeMessage, answerLink{"a", `{"action":"block","reason":"not that"}`}).Run(ctx, Event{Kind: contract.HookBeforeMessage, Message: &msg})
	if !d.Blocked || d.BlockedBy != "a" {
		t.Errorf("before_message block: %+v", d)
	}
	d = chain(contract.HookOnMessageComplete, answerLink{"a", `{"action":"block","reason":"not yet"}`}).Run(ctx, Event{Kind: contract.HookOnMessageComplete, Message: &msg})
	if !d.Blocked {
		t.Errorf("on_message_complete block: %+v", d)
	}
}

type recordLink struct {
	id   string
	seen *[]string
}

func (l recordLink) ID() string              { return l.id }
func (l recordLink) InputFault(error) string { return "" }
func (l recordLink) Gone() string            { return "" }
func (l recordLink) Handle(_ context.Context, _ contract.HookSpec, ev *Event, _ json.RawMessage) (Result, error) {
	*l.seen = append(*l.seen, string(ev.ToolInput))
	return Result{Action: contract.ActionContinue}, nil
}

type yes struct{}

func (yes) Confirm(context.Context, string, []Confirm) bool { return true }
