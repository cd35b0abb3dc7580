package extension

// Calls: one request to the running process, retried once after a crash
// when the method allows it, and the bookkeeping that tells a crash caused
// by one input from an extension that is broken.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plural"
)

// callOpts describes a call for crash reports and says whether it may be
// sent again after a crash.
type callOpts struct {
	// doing and what say what the call does, for errors: "running tool"
	// "hello", "handling" "before_tool_call". Two parts, joined only when a
	// crash is reported, so a call allocates nothing for them.
	doing, what string
	// retry allows sending the call once more to the restarted process
	// when the process died with the call in flight. Hooks and providers
	// only decide, so a second try is harmless; a tool may act (write a
	// file, send a mail), so it is retried only when declared idempotent.
	retry bool
	// noRetry says why the call is not retried, when retry is false.
	noRetry string
}

// call sends one request. If the process dies while the call is in
// flight, the call is sent once more to the restarted process when
// o.retry allows it or the request never reached the process; otherwise,
// or if the retry dies too, the error is a *CrashError.
func (e *Extension) call(ctx context.Context, method string, params any, o callOpts) (json.RawMessage, error) {
	p, gen, err := e.current(ctx)
	if err != nil {
		return nil, err
	}
	res, err := p.conn.Call(ctx, method, params)
	switch {
	case connLost(err):
	case e.timedOut(ctx, err):
		// Three calls in a row without an answer: the process is hung.
		// It is treated as crashed — killed and restarted — so later
		// calls do not each wait out the deadline.
		e.lost(p, fmt.Sprintf("hung: no answer to %d calls in a row", maxTimeouts))
		return res, err
	default:
		e.answered(err)
		return res, err
	}
	// A request that was never written cannot have run: sending it again
	// is safe whatever it does.
	unsent := errors.Is(err, jsonrpc.ErrNotSent)
	first := e.crashed(p)
	crash := &CrashError{Extension: e.ID(), During: o.doing + " " + o.what, First: &first}
	if !o.retry && !unsent {
		crash.NotRetried = o.noRetry
		return nil, crash
	}
	p2, gen2, err := e.current(ctx)
	if err == nil && gen2 == gen {
		err = fmt.Errorf("%w: process ended during %s", errNotRunning, method)
	}
	if err != nil {
		crash.RestartErr = err
		return nil, crash
	}
	res, err = p2.conn.Call(ctx, method, params)
	if connLost(err) {
		second := e.crashed(p2)
		crash.Retry = &second
		if e.provenOnOtherInput() {
			e.excuseInputCrash(ctx)
		}
		return nil, crash
	}
	if !e.timedOut(ctx, err) {
		e.answered(err)
	}
	return res, err
}

// provenOnOtherInput reports whether the extension has answered a request
// before: only then is a crash on the call and on its retry put down to the
// input. One that has never answered (it crashes on everything) is broken,
// and its crashes count.
func (e *Extension) provenOnOtherInput() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.answeredOnce
}

// maxInputCrashes is how many calls in a row may crash the extension on
// the call and on its retry and still be put down to their input; after
// that the crashes count, so an extension that crashes on every input
// still ends failed.
const maxInputCrashes = 5

// excuseInputCrash is called when one request crashed a process and,
// retried, its restarted successor: the input, not the extension, is the
// likely cause (a guard whose parser chokes on it). Once the restart under
// way is over, those two crashes are taken off the count that leaves an
// extension failed, so an input sent again and again cannot switch a guard
// off for the session: it is restarted for the next call.
func (e *Extension) excuseInputCrash(ctx context.Context) {
	e.mu.Lock()
	e.inputCrashes++
	n, wait := e.inputCrashes, e.restarting
	e.mu.Unlock()
	if n > maxInputCrashes {
		return
	}
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			return
		}
	}
	e.mu.Lock()
	e.failures = max(0, e.failures-2)
	e.mu.Unlock()
	e.log.note("the same request crashed the extension twice, also after a restart: put down to its input, not counted toward giving up (%s in a row)", plural.Count(n, "such call"))
}

// connLost reports whether a call failed because the process or its pipes
// went away: the connection closed, or the request could not be written
// (the child died between calls and its stdin is a broken pipe).
func connLost(err error) bool {
	return err != nil && (errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed))
}
