package extension

import (
	"fmt"
	"strings"
)

// crashReport is how one lost process ended, known once it has been
// reaped and its stderr read to the end. Each process has at most one,
// however many goroutines notice the loss (see Extension.lost).
type crashReport struct {
	// exit is how it ended: "exited with status 4", "killed by SIGKILL",
	// "hung: …", "protocol error: …".
	exit string
	// stderr is its last stderr lines, oldest first (at most stderrKept).
	stderr []string
	// outlook is what happens next, for the user: the restart under way,
	// or that the extension is now failed. "" when synaps is stopping it.
	outlook string
}

// String is the form kept as the extension's last crash and in its log:
// "exited with status 4; stderr: a | b | c".
func (c crashReport) String() string {
	s := c.exit
	if tail := lastN(c.stderr, 3); len(tail) > 0 {
		s += "; stderr: " + strings.Join(tail, " | ")
	}
	return s
}

// brief is the form for a one-line error: the exit and the last stderr
// line, which is where a crashing program says why.
func (c crashReport) brief() string {
	if len(c.stderr) == 0 {
		return c.exit + "; nothing on stderr"
	}
	return fmt.Sprintf("%s; last stderr line: %q", c.exit, c.stderr[len(c.stderr)-1])
}

// CrashError is the error of a call whose extension process was lost while
// the call was in flight. Its text is what the model and the user read, so
// it says which extension, during what, how the process ended and what it
// last wrote to stderr, whether the call was sent again, and what synaps
// does next — instead of the connection error underneath.
type CrashError struct {
	Extension string
	// During is what was in flight: "tool hello", "before_tool_call",
	// "provider.complete".
	During string
	// First is the crash during the call; Retry the crash during its retry
	// on a restarted process, when it was retried and crashed again.
	First, Retry *crashReport
	// NotRetried says why the call was not sent again; "" when it was, or
	// when no process came back to retry it on (RestartErr).
	NotRetried string
	// RestartErr is why the call could not be retried: the restart failed
	// or the extension stopped.
	RestartErr error
}

func (e *CrashError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "extension %s crashed while %s (%s)", e.Extension, e.During, e.First.brief())
	last := e.First
	switch {
	case e.Retry != nil:
		fmt.Fprintf(&b, ", and again when the call was retried on a restarted process (%s)", e.Retry.brief())
		last = e.Retry
	case e.RestartErr != nil:
		fmt.Fprintf(&b, "; not retried: %v", e.RestartErr)
		return b.String()
	case e.NotRetried != "":
		fmt.Fprintf(&b, "; not retried, %s", e.NotRetried)
	}
	if last.outlook != "" {
		b.WriteString("; ")
		b.WriteString(last.outlook)
	}
	return b.String()
}

// lastN returns the last n elements of s.
func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
