package claude

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A hook printing far past the capture bound leaves synaps holding the
// bound, and counting the rest. Before, the buffer's ReadFrom took all of
// it (50 MB here, 400 MB in the report).
func TestExecCapsWhatIsHeld(t *testing.T) {
	const printed = 50 << 20
	r := Exec(context.Background(), Command{Line: "head -c 52428800 /dev/zero | tr '\\0' x; head -c 3000000 /dev/zero >&2", Timeout: time.Minute}, nil)
	if r.StartErr != nil || r.ExitCode != 0 {
		t.Fatalf("run: %+v", r.StartErr)
	}
	got := []int64{int64(len(r.Stdout)), r.StdoutCut, int64(len(r.Stderr)), r.StderrCut}
	want := []int64{maxCapture, printed - maxCapture, maxCapture, 3000000 - maxCapture}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("held stdout, dropped stdout, held stderr, dropped stderr (-want +got):\n%s", d)
	}
}

func TestInterpretBoundsWhatIsShownAndGiven(t *testing.T) {
	big := strings.Repeat("y", 3*MaxContext)
	tests := []struct {
		name      string
		event     string
		run       Run
		context   int // characters before the note; -1: none
		note      int
		failedCap bool
	}{
		{name: "SessionStart plain stdout", event: "SessionStart", run: Run{Stdout: big}, context: MaxContext, note: -1},
		{name: "additionalContext", event: "UserPromptSubmit", run: Run{Stdout: `{"hookSpecificOutput":{"additionalContext":"` + big + `"}}`}, context: MaxContext, note: -1},
		{name: "plain stdout shown", event: "PreToolUse", run: Run{Stdout: big}, context: -1, note: MaxNote},
		{name: "systemMessage", event: "PreToolUse", run: Run{Stdout: `{"systemMessage":"` + big + `"}`}, context: -1, note: MaxNote},
		{name: "small is whole", event: "SessionStart", run: Run{Stdout: "the branch is main"}, context: len("the branch is main"), note: -1},
		{name: "JSON cut at capture", event: "PreToolUse", run: Run{Stdout: `{"systemMessage":"` + big, StdoutCut: 7}, context: -1, note: -1, failedCap: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Interpret(&Event{Name: tt.event, ToolName: "Bash"}, "hook", tt.run)
			held := func(s string) int {
				if s == "" {
					return -1
				}
				before, _, _ := strings.Cut(s, "\n… [")
				return len(before)
			}
			note := -1
			if len(o.Notes) > 0 {
				note = held(o.Notes[0])
			}
			if d := cmp.Diff([]int{tt.context, tt.note}, []int{held(o.Context), note}); d != "" {
				t.Errorf("context, note characters (-want +got):\n%s", d)
			}
			if tt.context == MaxContext && !strings.Contains(o.Context, "cut at 10000 characters; 20000 more bytes not shown") {
				t.Errorf("context has no note of the cut: …%s", o.Context[len(o.Context)-80:])
			}
			if got := strings.Contains(o.Failed, "first 1 MiB"); got != tt.failedCap {
				t.Errorf("failure %q names the capture cap: %v", o.Failed, got)
			}
		})
	}
}
