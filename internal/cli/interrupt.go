package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
)

// errInterrupted is the cause of a context cancelled by SIGINT (Ctrl-C).
// Main turns a command that failed after it into exit code 130, the
// shell's code for "ended by SIGINT".
var errInterrupted = errors.New("interrupted")

// interruptible returns a copy of ctx that the first SIGINT cancels with
// cause errInterrupted. After that first one SIGINT is left to its default
// action again, so a second Ctrl-C ends synaps at once when winding down
// (saving the session, stopping extensions) takes too long. cli owns
// SIGINT because what it means depends on the command; cmd/synaps only
// turns SIGTERM into a cancelled context.
func interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel(errInterrupted)
		case <-done:
		}
		signal.Stop(sigs)
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

// interrupted reports whether SIGINT cancelled ctx.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}
