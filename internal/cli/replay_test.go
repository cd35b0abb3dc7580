package cli

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/agent"
)

// TestRecordedWas: what was decided about a call of a session recorded
// before call reports is read from its result: a block's text, a
// refusal, a question nobody could answer; a tool's own error ran.
func TestRecordedWas(t *testing.T) {
	tests := []struct {
		result  string
		isError bool
		want    outcome
	}{
		{"hi\n", false, outcome{Verdict: "allow"}},
		{"exit status 1", true, outcome{Verdict: "allow"}},
		{"Tool call blocked by extension guard: no rm -rf", true, outcome{Verdict: "block", By: "extension guard", Reason: "no rm -rf"}},
		{"Permission to run bash was denied by deny rule Bash(rm:*).", true, outcome{Verdict: "block", Reason: "Permission to run bash was denied by deny rule Bash(rm:*)."}},
		{"write was not run: synaps is in plan mode, which is read-only.", true, outcome{Verdict: "block", Reason: "write was not run: synaps is in plan mode, which is read-only."}},
		{"bash was not run: it needs permission (default mode asks before bash)", true, outcome{Verdict: "ask", Reason: "bash was not run: it needs permission (default mode asks before bash)"}},
		{"unknown tool \"x\"; the available tools are: bash", true, outcome{Verdict: "block", Reason: "unknown tool \"x\"; the available tools are: bash"}},
	}
	for _, tt := range tests {
		c := recordedCall{Result: tt.result, IsError: tt.isError, HasResult: true}
		if diff := cmp.Diff(tt.want, c.was(), cmp.AllowUnexported(outcome{})); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.result, diff)
		}
	}
}

// TestDiffers: a verdict change always counts; with reports on both
// sides, so does another blocker or another rewrite; without, only the
// verdict can be compared.
func TestDiffers(t *testing.T) {
	rewrite := json.RawMessage(`{"command":"echo new"}`)
	tests := []struct {
		name     string
		was, now outcome
		want     bool
	}{
		{"same allow", outcome{Verdict: agent.VerdictAllow, Recorded: true}, outcome{Verdict: agent.VerdictAllow, Recorded: true}, false},
		{"allow to block", outcome{Verdict: agent.VerdictAllow}, outcome{Verdict: agent.VerdictBlock, By: "ext:g/before_tool_call"}, true},
		{"other blocker, recorded", outcome{Verdict: agent.VerdictBlock, By: "ext:a/before_tool_call", Recorded: true}, outcome{Verdict: agent.VerdictBlock, By: "ext:b/before_tool_call"}, true},
		{"other blocker, inferred", outcome{Verdict: agent.VerdictBlock, By: "extension a"}, outcome{Verdict: agent.VerdictBlock, By: "ext:a/before_tool_call"}, false},
		{"new rewrite", outcome{Verdict: agent.VerdictAllow, Recorded: true}, outcome{Verdict: agent.VerdictAllow, Final: rewrite}, true},
		{"inputs not kept", outcome{Verdict: agent.VerdictAllow, Recorded: true, noInputs: true}, outcome{Verdict: agent.VerdictAllow, Final: rewrite}, false},
		{"same rewrite, other spacing", outcome{Verdict: agent.VerdictAllow, Final: json.RawMessage(`{"command": "echo new"}`), Recorded: true}, outcome{Verdict: agent.VerdictAllow, Final: rewrite}, false},
	}
	for _, tt := range tests {
		if got := differs(tt.was, tt.now); got != tt.want {
			t.Errorf("%s: differs = %v, want %v", tt.name, got, tt.want)
		}
	}
}
