package hook

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
)

// SynapsCLI's advisory context_phase answer decodes with its phase; one
// without a phase is an error naming the key, as an inject without
// content is.
func TestDecodeContextPhase(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		want    Result
		wantErr string
	}{
		{"phase", `{"action":"context_phase","phase":"new_task"}`, Result{Action: contract.ActionContextPhase, Phase: "new_task"}, ""},
		{"case and spaces in the action", `{"action":" Context_Phase ","phase":"debugging"}`, Result{Action: contract.ActionContextPhase, Phase: "debugging"}, ""},
		{"no phase", `{"action":"context_phase"}`, Result{}, `context_phase needs "phase": the phase as a non-empty string, such as "new_task"`},
		{"empty phase", `{"action":"context_phase","phase":" "}`, Result{}, `context_phase needs "phase": the phase as a non-empty string, such as "new_task"`},
		{"phase not a string", `{"action":"context_phase","phase":3}`, Result{}, `context_phase needs "phase": the phase as a non-empty string, such as "new_task"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeResult(json.RawMessage(tt.raw))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// paramsLink keeps the params it is sent.
type paramsLink struct{ got chan json.RawMessage }

func (l paramsLink) ID() string              { return "rec" }
func (l paramsLink) InputFault(error) string { return "" }
func (l paramsLink) Gone() string            { return "" }
func (l paramsLink) Handle(_ context.Context, _ contract.HookSpec, _ *Event, params json.RawMessage) (Result, error) {
	l.got <- params
	return Result{Action: contract.ActionContinue}, nil
}

// With HideSessionID (SYNAPS_HOOK_SESSION_ID=0) every event goes out with
// session_id null, in the event and its context, whichever way the chain
// walks: an observing hook, one that acts, a tool hook. Without it the
// caller's id is sent.
func TestHideSessionID(t *testing.T) {
	events := []Event{
		{Kind: contract.HookOnSessionEnd, SessionID: "s1"},
		{Kind: contract.HookOnMessageComplete, SessionID: "s1"},
		{Kind: contract.HookBeforeToolCall, ToolName: "bash", ToolRuntimeName: "bash", ToolInput: json.RawMessage(`{}`), SessionID: "s1"},
	}
	for _, hide := range []bool{false, true} {
		for _, ev := range events {
			t.Run(ev.Kind, func(t *testing.T) {
				l := paramsLink{got: make(chan json.RawMessage, 1)}
				c := NewChain(Options{HideSessionID: hide})
				c.Set(Table{ev.Kind: {{Link: l, Subs: []Subscription{{Hook: ev.Kind}}}}})
				c.Run(context.Background(), ev)
				var got struct {
					SessionID *string `json:"session_id"`
					Context   struct {
						SessionID *string `json:"session_id"`
					} `json:"context"`
				}
				if err := json.Unmarshal(<-l.got, &got); err != nil {
					t.Fatal(err)
				}
				var want *string
				if !hide {
					s := "s1"
					want = &s
				}
				if diff := cmp.Diff(want, got.SessionID); diff != "" {
					t.Errorf("hide=%v: session_id (-want +got):\n%s", hide, diff)
				}
				if diff := cmp.Diff(want, got.Context.SessionID); diff != "" {
					t.Errorf("hide=%v: context.session_id (-want +got):\n%s", hide, diff)
				}
				if ev.SessionID != "s1" {
					t.Errorf("the caller's event was changed: %q", ev.SessionID)
				}
			})
		}
	}
}
