package agent

import (
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
	claude := hook.LinkReport{ID: "claude:claude-user/PreToolUse", State: hook.StateJudged}
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
