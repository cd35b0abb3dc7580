package claude

import (
	"context"
	"strings"
)

// Async hooks, as Claude Code 2.1.332 runs them: an `async` command hook
// starts and the event goes on without waiting for it. When it ends,
// what it says to the user is shown, and its additionalContext reaches
// the model at its next request (Wake). `asyncRewake` also wakes the
// model when the hook exits 2: its stderr, after rewakeMessage, is the
// text the model gets. onFailure does not apply (Claude ignores it for
// async hooks): nothing waits for the answer.

// background starts h for event e and returns at once.
func (l *Link) background(e *Event, h Handler, payload []byte, env []string) {
	timeout := timeoutFor(h, e.Name)
	go func() {
		r := Exec(context.Background(), Command{Line: h.Command, Args: h.Args, Shell: h.Shell, Dir: l.ProjectDir, Env: env, Timeout: timeout, Policy: l.Policy}, payload)
		if h.AsyncRewake && r.ExitCode == 2 && !r.TimedOut && r.StartErr == nil {
			text := strings.TrimSpace(r.Stderr)
			if h.RewakeMessage != "" {
				text = joinText(h.RewakeMessage, text)
			}
			l.wake(cut(text, MaxContext, "hook output", r.StderrCut))
			return
		}
		o := Interpret(e, h.label(), r)
		for _, n := range o.Notes {
			l.notify(n)
		}
		if o.Failed != "" {
			l.notify("failed (in the background): " + o.Failed)
		}
		if o.Context != "" {
			l.wake(o.Context)
		}
	}()
}

func (l *Link) notify(text string) {
	if l.Notify != nil {
		l.Notify(l.Name, text)
	}
}

// wake gives the model text from a background hook; without Wake, the
// user is told what the model could not be.
func (l *Link) wake(text string) {
	if l.Wake != nil {
		l.Wake(l.Name, text)
		return
	}
	l.notify("(for the model, which this front end cannot wake) " + text)
}
