package claude

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxContext bounds the text one hook gives the model (additionalContext,
// a SessionStart or UserPromptSubmit hook's plain stdout, a block's
// reason): Claude Code's documented limit on hook output injected into
// context is 10,000 characters. Without it, 5 MB of SessionStart context
// went into every request of the session.
const MaxContext = 10000

// MaxNote bounds what one hook shows the user (systemMessage, stderr,
// plain stdout of other events, a failure): enough for an error message,
// never megabytes on one terminal line.
const MaxNote = 2000

// bound cuts o's texts at their limits, each with a note saying so; a
// run whose output was already cut at capture (maxCapture) says that in
// the failure it may have caused (JSON cut in the middle).
func bound(o *Outcome, r Run) {
	// The bytes dropped at capture count in the note of text that came
	// from the stream (a plain stdout's or stderr's end).
	dropped := r.StdoutCut + r.StderrCut
	o.Context = cut(o.Context, MaxContext, "hook output", dropped)
	o.Reason = cut(o.Reason, MaxContext, "hook output", dropped)
	o.StopReason = cut(o.StopReason, MaxNote, "hook output", 0)
	for i, n := range o.Notes {
		o.Notes[i] = cut(n, MaxNote, "hook output", dropped)
	}
	if o.Failed != "" && (r.StdoutCut > 0 || r.StderrCut > 0) {
		o.Failed += fmt.Sprintf(" (synaps keeps the first %d MiB of a hook's stdout and stderr; the rest was dropped)", maxCapture>>20)
	}
	o.Failed = cut(o.Failed, MaxNote, "failure message", 0)
}

// cut returns s when it has at most limit characters, else its first
// limit characters and a note of how many bytes more there were (dropped
// more were never held).
func cut(s string, limit int, what string, dropped int64) string {
	if len(s) <= limit || utf8.RuneCountInString(s) <= limit {
		return s
	}
	n := 0
	for i := range s {
		if n == limit {
			rest := int64(len(s)-i) + dropped
			return strings.TrimRight(s[:i], " \n") + fmt.Sprintf("\n… [%s cut at %d characters; %d more bytes not shown]", what, limit, rest)
		}
		n++
	}
	return s
}
