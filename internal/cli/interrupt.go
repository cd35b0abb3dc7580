package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
)

// errInterrupted is the cause of a context cancelled by SIGINT (Ctrl-C).
// Main turns a command that failed after it into exit code 130, the
// shell's code for "ended by SIGINT".
var errInterrupted = errors.New("interrupted")

// interrupts is what SIGINT does in one run of Main. cli owns SIGINT
// because its meaning depends on the command: in `synaps chat` it cancels
// the running turn and the session goes on; anywhere else (-p, between
// chat turns, the other commands) it cancels the command. After a SIGINT
// that cancelled the command, SIGINT is left to its default action again,
// so a second Ctrl-C ends synaps at once when winding down (saving the
// session, stopping extensions) takes too long. cmd/synaps only turns
// SIGTERM into a cancelled context.
type interrupts struct {
	cancel context.CancelCauseFunc // cancels the command's context

	mu   sync.Mutex
	turn context.CancelCauseFunc // guarded by mu: the claimed turn's cancel, or nil
}

type interruptsKey struct{}

// interruptible returns a copy of ctx that SIGINT cancels with cause
// errInterrupted (or whose claimed turn it cancels; see claimInterrupt),
// and the function that stops listening.
func interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	in := &interrupts{cancel: cancel}
	ctx = context.WithValue(ctx, interruptsKey{}, in)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	done := make(chan struct{})
	go func() {
		defer signal.Stop(sigs)
		for {
			select {
			case <-sigs:
				if !in.cancelTurn() {
					cancel(errInterrupted)
					return
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

// cancelTurn cancels the claimed turn, if there is one, and reports
// whether there was.
func (in *interrupts) cancelTurn() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.turn == nil {
		return false
	}
	in.turn(errInterrupted)
	in.turn = nil
	return true
}

// claimInterrupt returns a context for one turn that the next SIGINT
// cancels instead of the whole command, and the function that gives SIGINT
// back (call it when the turn ends). Outside Main (no interruptible
// context) the turn is simply cancellable.
func claimInterrupt(ctx context.Context) (context.Context, func()) {
	turnCtx, cancel := context.WithCancelCause(ctx)
	in, _ := ctx.Value(interruptsKey{}).(*interrupts)
	if in == nil {
		return turnCtx, func() { cancel(nil) }
	}
	in.mu.Lock()
	in.turn = cancel
	in.mu.Unlock()
	return turnCtx, func() {
		in.mu.Lock()
		in.turn = nil
		in.mu.Unlock()
		cancel(nil)
	}
}

// interrupted reports whether SIGINT cancelled ctx.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}
