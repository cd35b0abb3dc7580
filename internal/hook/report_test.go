package hook

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synaps-cli/synaps/internal/contract"
)

// reportLink answers by the input it is asked about: a block when the
// input holds block, a modify to rewrite when it holds from, else
// continue; gone makes it a dead link that answers nothing.
type reportLink struct {
	id, block, from, rewrite, gone string
}

func (l reportLink) ID() string              { return l.id }
func (l reportLink) InputFault(error) string { return "" }
func (l reportLink) Gone() string            { return l.gone }
func (l reportLink) Handle(_ context.Context, _ contract.HookSpec, ev *Event, _ json.RawMessage) (Result, error) {
	in := string(ev.ToolInput)
	switch {
	case l.gone != "":
		return Result{}, errors.New("not running")
	case l.block != "" && strings.Contains(in, l.block):
		return Result{Action: contract.ActionBlock, Reason: "no " + l.block}, nil
	case l.from != "" && strings.Contains(in, l.from):
		return Result{Action: contract.ActionModify, Input: json.RawMessage(l.rewrite)}, nil
	}
	return Result{Action: contract.ActionContinue}, nil
}

// TestReport: the chain's per-call report names every link in order with
// what it did — judged (and its answer and rewrite, in each pass it was
// asked), could not judge (and why), not matched, not asked after a
// block — and asking for none changes nothing.
func TestReport(t *testing.T) {
	sub := func(tool string) []Subscription {
		return []Subscription{{Hook: contract.HookBeforeToolCall, Tool: tool}}
	}
	table := Table{contract.HookBeforeToolCall: {
		{Link: reportLink{id: "a-guard", block: "rm -rf"}, Subs: sub("bash")},
		{Link: reportLink{id: "b-rewriter", from: `"ls"`, rewrite: `{"command":"rm -rf build"}`}, Subs: sub("bash")},
		{Link: reportLink{id: "c-dead", gone: "it crashed at start"}, Subs: sub("bash")},
		{Link: reportLink{id: "d-writes"}, Subs: sub("write")},
	}}
	c := NewChain(Options{})
	c.Set(table)
	tests := []struct {
		name  string
		input string
		want  []LinkReport
	}{{
		name:  "allowed",
		input: `{"command":"echo hi"}`,
		want: []LinkReport{
			{ID: "ext:a-guard/before_tool_call", State: StateJudged, Action: "continue", Input: json.RawMessage(`{"command":"echo hi"}`), Pass: 1},
			{ID: "ext:b-rewriter/before_tool_call", State: StateJudged, Action: "continue", Input: json.RawMessage(`{"command":"echo hi"}`), Pass: 1},
			{ID: "ext:c-dead/before_tool_call", State: StateFailed, Fault: "dead: it crashed at start", Input: json.RawMessage(`{"command":"echo hi"}`), Pass: 1},
			{ID: "ext:d-writes/before_tool_call", State: StateNotMatched},
		},
	}, {
		name:  "modify then block",
		input: `{"command":"ls"}`,
		want: []LinkReport{
			{ID: "ext:a-guard/before_tool_call", State: StateJudged, Action: "continue", Input: json.RawMessage(`{"command":"ls"}`), Pass: 1},
			{ID: "ext:b-rewriter/before_tool_call", State: StateJudged, Action: "modify", Input: json.RawMessage(`{"command":"ls"}`), Rewrite: json.RawMessage(`{"command":"rm -rf build"}`), Pass: 1},
			{ID: "ext:c-dead/before_tool_call", State: StateFailed, Fault: "dead: it crashed at start", Input: json.RawMessage(`{"command":"rm -rf build"}`), Pass: 1},
			{ID: "ext:a-guard/before_tool_call", State: StateJudged, Action: "block", Reason: "no rm -rf", Input: json.RawMessage(`{"command":"rm -rf build"}`), Pass: 2},
			{ID: "ext:d-writes/before_tool_call", State: StateNotMatched},
		},
	}, {
		name:  "blocked first",
		input: `{"command":"rm -rf /"}`,
		want: []LinkReport{
			{ID: "ext:a-guard/before_tool_call", State: StateJudged, Action: "block", Reason: "no rm -rf", Input: json.RawMessage(`{"command":"rm -rf /"}`), Pass: 1},
			{ID: "ext:b-rewriter/before_tool_call", State: StateNotAsked},
			{ID: "ext:c-dead/before_tool_call", State: StateNotAsked},
			{ID: "ext:d-writes/before_tool_call", State: StateNotMatched},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Report
			with := c.BeforeToolCall(WithReport(context.Background(), &r), "bash", "bash", json.RawMessage(tt.input), "s", nil)
			if diff := cmp.Diff(tt.want, r.Links, cmpopts.IgnoreFields(LinkReport{}, "DurationNS")); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			without := c.BeforeToolCall(context.Background(), "bash", "bash", json.RawMessage(tt.input), "s", nil)
			if diff := cmp.Diff(without, with); diff != "" {
				t.Errorf("asking for a report changed the decision (-without +with):\n%s", diff)
			}
		})
	}
}

// BenchmarkChainBeforeToolCallReport: BenchmarkChainBeforeToolCall with
// the per-call report asked for, as every session call does.
func BenchmarkChainBeforeToolCallReport(b *testing.B) {
	c := benchChain(5)
	input := json.RawMessage(`{"command":"echo hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		var r Report
		c.BeforeToolCall(WithReport(context.Background(), &r), "bash", "bash", input, "s", nil)
	}
}

// TestReportTimedOut: a link past its deadline is reported as could not
// judge, timed out, whatever error text it returns.
func TestReportTimedOut(t *testing.T) {
	c := NewChain(Options{Timeout: 20 * time.Millisecond})
	c.Set(Table{contract.HookBeforeToolCall: {{Link: slowLink{time.Hour}, Subs: []Subscription{{Hook: contract.HookBeforeToolCall}}}}})
	var r Report
	d := c.BeforeToolCall(WithReport(context.Background(), &r), "bash", "bash", json.RawMessage(`{}`), "s", nil)
	if d.Blocked || len(r.Links) != 1 {
		t.Fatalf("decision %+v, report %+v", d, r.Links)
	}
	if l := r.Links[0]; l.ID != "ext:slow/before_tool_call" || l.State != StateFailed || !strings.HasPrefix(l.Fault, "timed out: ") {
		t.Errorf("report %+v; want ext:slow/before_tool_call could not judge, timed out", l)
	}
}
