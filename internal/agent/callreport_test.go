package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/hook"
)

// TestRequiredMissing: a required guard, named by its full id, its id
// without the hook or its plugin name, must have judged the call; a
// guard that could not judge, or that is not in the chain at all, is
// named with why; one whose subscriptions did not match is not required.
func TestRequiredMissing(t *testing.T) {
	judged := hook.LinkReport{ID: "ext:guard/before_tool_call", State: hook.StateJudged, Action: "continue"}
	dead := hook.LinkReport{ID: "ext:guard/before_tool_call", State: hook.StateFailed, Fault: "dead: crashed"}
	unmatched := hook.LinkReport{ID: "ext:guard/before_tool_call", State: hook.StateNotMatched}
	claude := hook.LinkReport{ID: "claude:user/PreToolUse/0", State: hook.StateJudged}
	ccJudged := hook.LinkReport{ID: "plugin:cc/PreToolUse/0", State: hook.StateJudged, Action: "continue"}
	ccOther := hook.LinkReport{ID: "plugin:cc/PreToolUse/1", State: hook.StateNotMatched}
	ccFailed := hook.LinkReport{ID: "plugin:cc/PreToolUse/1", State: hook.StateFailed, Fault: "failed: exit 1"}
	local := hook.LinkReport{ID: "claude:local/PreToolUse/0", State: hook.StateJudged}
	tests := []struct {
		name     string
		required []string
		links    []hook.LinkReport
		want     string
	}{
		{"judged, plugin name", []string{"guard"}, []hook.LinkReport{judged}, ""},
		{"judged, full id", []string{"ext:guard/before_tool_call"}, []hook.LinkReport{judged}, ""},
		{"judged, id without hook", []string{"ext:guard"}, []hook.LinkReport{judged}, ""},
		{"claude file", []string{"claude:claude-user"}, []hook.LinkReport{claude}, ""},
		{"judged in a later pass after failing", []string{"guard"}, []hook.LinkReport{dead, judged}, ""},
		{"dead", []string{"guard"}, []hook.LinkReport{dead}, "guard: it could not judge it (dead: crashed)"},
		{"not its call", []string{"guard"}, []hook.LinkReport{unmatched}, ""},
		{"not in the chain", []string{"other"}, []hook.LinkReport{judged}, "other: it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"},
		{"second of two", []string{"guard", "claude:claude-user"}, []hook.LinkReport{judged}, "claude:claude-user: it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"},
		{"none required", nil, nil, ""},
		// A Claude plugin's hooks, each by its own id.
		{"claude hook, full id", []string{"plugin:cc/PreToolUse/1"}, []hook.LinkReport{ccJudged, ccOther}, ""},
		{"claude plugin prefix", []string{"plugin:cc"}, []hook.LinkReport{ccJudged, ccOther}, ""},
		{"claude plugin bare name", []string{"cc"}, []hook.LinkReport{ccJudged, ccOther}, ""},
		{"claude plugin as file id before", []string{"claude:cc"}, []hook.LinkReport{ccJudged, ccOther}, ""},
		{"claude plugin event as file id before", []string{"claude:cc/PreToolUse"}, []hook.LinkReport{ccJudged, ccOther}, ""},
		{"claude event prefix", []string{"plugin:cc/PreToolUse"}, []hook.LinkReport{ccJudged, ccOther}, ""},
		{"one hook of the plugin failed", []string{"plugin:cc"}, []hook.LinkReport{ccJudged, ccFailed}, "plugin:cc: it could not judge it (plugin:cc/PreToolUse/1: failed: exit 1)"},
		{"the failed hook itself", []string{"plugin:cc/PreToolUse/1"}, []hook.LinkReport{ccJudged, ccFailed}, "plugin:cc/PreToolUse/1: it could not judge it (failed: exit 1)"},
		{"the other hook judged", []string{"plugin:cc/PreToolUse/0"}, []hook.LinkReport{ccJudged, ccFailed}, ""},
		{"disabled hook not in the chain", []string{"plugin:cc/PreToolUse/2"}, []hook.LinkReport{ccJudged, ccFailed}, "plugin:cc/PreToolUse/2: it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"},
		{"settings file, old id", []string{"claude:claude-project"}, []hook.LinkReport{local}, ""},
		{"settings file, old id with event", []string{"claude:claude-project/PreToolUse"}, []hook.LinkReport{local}, ""},
		{"settings file by source", []string{"claude:local"}, []hook.LinkReport{local}, ""},
		{"settings file, other source", []string{"claude:project"}, []hook.LinkReport{local}, "claude:project: it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"},
		{"other event", []string{"plugin:cc/PostToolUse"}, []hook.LinkReport{ccJudged}, "plugin:cc/PostToolUse: it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"},
		{"not a prefix of a longer name", []string{"plugin:c"}, []hook.LinkReport{ccJudged}, "plugin:c: it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, why := requiredMissing(tt.required, tt.links)
			got := ""
			if g != "" {
				got = g + ": " + why
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestKeptReport: the session keeps a link's input only where a rewrite
// made it differ from the call's, and a report whose inputs would be
// large is kept without them, links and verdict intact.
func TestKeptReport(t *testing.T) {
	in := json.RawMessage(`{"command":"ls"}`)
	out := json.RawMessage(`{"command":"rm -rf build"}`)
	r := &CallReport{Tool: "bash", Input: in, Verdict: VerdictBlock, By: "ext:g/before_tool_call", Links: []hook.LinkReport{
		{ID: "ext:g/before_tool_call", State: hook.StateJudged, Action: "continue", Input: in},
		{ID: "ext:r/before_tool_call", State: hook.StateJudged, Action: "modify", Input: in, Rewrite: out},
		{ID: "ext:g/before_tool_call", State: hook.StateJudged, Action: "block", Input: out},
	}}
	k := kept(r)
	got := []string{string(k.Links[0].Input), string(k.Links[1].Input), string(k.Links[1].Rewrite), string(k.Links[2].Input)}
	if diff := cmp.Diff([]string{"", "", string(out), string(out)}, got); diff != "" {
		t.Errorf("kept inputs (-want +got):\n%s", diff)
	}
	if string(r.Links[0].Input) != string(in) {
		t.Error("kept changed the report itself")
	}

	big := json.RawMessage(`{"content":"` + strings.Repeat("x", maxKeptReport) + `"}`)
	r = &CallReport{Tool: "write", Input: big, Verdict: VerdictAllow, Links: []hook.LinkReport{{ID: "ext:g/before_tool_call", State: hook.StateJudged, Action: "continue", Input: big}}}
	k = kept(r)
	b, _ := json.Marshal(k)
	if !k.InputsDropped || len(b) > 4096 || len(k.Links) != 1 || k.Verdict != VerdictAllow {
		t.Errorf("a large report is kept as %d bytes (inputs dropped %v): %.200s", len(b), k.InputsDropped, b)
	}
}
