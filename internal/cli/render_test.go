package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/agent"
)

// Calls that ran side by side end in any order; a call that ends after
// another started repeats its start line, so each result sits under its
// own call.
func TestRenderInterleavedCalls(t *testing.T) {
	var out strings.Builder
	r := &renderer{out: &out}
	a := &agent.ToolCall{ID: "a", Name: "read", Input: []byte(`{"path":"a.txt"}`), InputRequested: []byte(`{"path":"a.txt"}`)}
	b := &agent.ToolCall{ID: "b", Name: "read", Input: []byte(`{"path":"b.txt"}`), InputRequested: []byte(`{"path":"b.txt"}`)}
	r.event(agent.Event{Type: agent.EventToolStart, Tool: a})
	r.event(agent.Event{Type: agent.EventToolStart, Tool: b})
	b.Output = "bee"
	r.event(agent.Event{Type: agent.EventToolEnd, Tool: b})
	a.Output = "ay"
	r.event(agent.Event{Type: agent.EventToolEnd, Tool: a})
	want := []string{"● read a.txt", "● read b.txt", "  ⎿ bee", "    (0s)", "● read a.txt", "  ⎿ ay", "    (0s)", ""}
	if d := cmp.Diff(want, strings.Split(out.String(), "\n")); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}

// A failed call's output is printed whole where nobody watches a screen
// (fullErrors: stderr is a log), and as a preview on a terminal; other
// output is always a preview.
func TestRenderErrorsWholeOffTerminal(t *testing.T) {
	long := strings.Repeat("x", 150) + " the end of the reason"
	errOut := long + "\nline 2\nline 3\nline 4"
	for _, tc := range []struct {
		name       string
		fullErrors bool
		isError    bool
		want       []string
	}{
		{"error off a terminal", true, true, []string{"● bash false", "  ⎿ error: " + long, "    line 2", "    line 3", "    line 4", "    (0s)", ""}},
		{"error on a terminal", false, true, []string{"● bash false", "  ⎿ error: " + strings.Repeat("x", 109) + "…", "    line 2", "    line 3", "    … 1 more line", "    (0s)", ""}},
		{"output off a terminal", true, false, []string{"● bash false", "  ⎿ " + strings.Repeat("x", 109) + "…", "    line 2", "    line 3", "    … 1 more line", "    (0s)", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			r := &renderer{out: &out, fullErrors: tc.fullErrors}
			c := &agent.ToolCall{ID: "a", Name: "bash", InputRequested: []byte(`{"command":"false"}`), Output: errOut, IsError: tc.isError}
			r.event(agent.Event{Type: agent.EventToolStart, Tool: c})
			r.event(agent.Event{Type: agent.EventToolEnd, Tool: c})
			if d := cmp.Diff(tc.want, strings.Split(out.String(), "\n")); d != "" {
				t.Errorf("output (-want +got):\n%s", d)
			}
		})
	}
}

// Notices that go to stderr take colour by stderr, not stdout: chat on a
// terminal with stderr sent to a log writes no escapes into the log.
func TestRenderNoticeColourFollowsItsStream(t *testing.T) {
	for _, tc := range []struct {
		noticeColor bool
		want        string
	}{
		{false, "! guard is gone\n"},
		{true, "\x1b[33m! guard is gone\x1b[0m\n"},
	} {
		var out, errs strings.Builder
		r := &renderer{out: &out, color: true, notices: &errs, noticeColor: tc.noticeColor}
		r.event(agent.Event{Type: agent.EventNotice, Text: "guard is gone"})
		if errs.String() != tc.want || out.String() != "" {
			t.Errorf("noticeColor %v: stderr %q, stdout %q; want stderr %q", tc.noticeColor, errs.String(), out.String(), tc.want)
		}
	}
}
