package extension

// Supervision: noticing that a process is gone, restarting it with
// backoff until it initialises or has failed MaxRestarts times, and
// counting timeouts that make a hung process restart.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// watch waits for the process to die or its connection to break. Unless
// synaps is stopping it, that is a crash.
func (e *Extension) watch(p *process) {
	select {
	case <-p.exited:
	case <-p.conn.Done():
	}
	e.crashed(p)
}

// crashed handles the loss of process p: it is killed and reaped, and a
// restart begins unless the extension has crashed too often.
func (e *Extension) crashed(p *process) crashReport { return e.lost(p, "") }

// lost is crashed with the reason known to the caller ("" = read it from
// the exit status). The watcher and every caller whose call broke may all
// report the same loss: the first handles it and the others get its
// report, which is complete — exit status and the last stderr lines — by
// the time lost returns.
func (e *Extension) lost(p *process, reason string) crashReport {
	p.lossOnce.Do(func() { p.loss = e.handleLoss(p, reason) })
	return p.loss
}

func (e *Extension) handleLoss(p *process, reason string) crashReport {
	e.mu.Lock()
	if e.proc != p || e.stopping {
		// stop took the process: it ends it politely, not us.
		e.mu.Unlock()
		return crashReport{exit: "synaps is stopping the extension"}
	}
	e.proc = nil
	e.restarting = make(chan struct{})
	e.state = StateRestarting
	// restart counts this crash first thing; say now what it will decide.
	inARow := e.failures + 1
	e.mu.Unlock()

	p.kill()
	c := crashReport{exit: p.exitDescription(), stderr: p.stderrTail()}
	if reason != "" {
		c.exit = reason
	}
	if err := p.conn.Err(); err != nil && errors.Is(err, jsonrpc.ErrFrameTooLarge) {
		c.exit = "protocol error: " + err.Error()
	}
	if err := p.conn.Err(); errors.Is(err, jsonrpc.ErrPeerNotReading) {
		// Not a crash a restart would cure: the extension's design floods
		// synaps. It is failed at once.
		c.exit = "protocol error: " + err.Error()
		why := c.exit + "; an extension must keep reading its stdin while it sends requests, or synaps stops reading from it"
		c.outlook = fmt.Sprintf("it is now failed and will not be restarted; `synaps extensions logs %s` shows its log", e.ID())
		e.log.note("failed: %s", why)
		e.mu.Lock()
		done := e.restarting
		e.state, e.reason, e.restarting = StateFailed, why, nil
		e.mu.Unlock()
		close(done)
		return c
	}
	why := c.String()
	if inARow > MaxRestarts {
		c.outlook = fmt.Sprintf("it has crashed %d times in a row and is now failed; `synaps extensions logs %s` shows its log", inARow, e.ID())
	} else {
		c.outlook = "synaps is restarting it"
	}
	e.log.note("process crashed (%s)", why)
	e.mu.Lock()
	e.reason = why
	e.mu.Unlock()
	go e.restart(why)
	return c
}

// restart starts new processes until one initialises or the extension has
// failed MaxRestarts times in a row. Attempts after a failed one back off
// briefly so a crash loop does not spin.
func (e *Extension) restart(why string) {
	e.mu.Lock()
	done := e.restarting
	e.mu.Unlock()
	defer close(done)
	for attempt := 0; ; attempt++ {
		e.mu.Lock()
		e.failures++
		if e.stopping || e.failures > MaxRestarts {
			if !e.stopping {
				e.state = StateFailed
				e.reason = fmt.Sprintf("crashed %d times in a row; last: %s", e.failures, why)
				e.log.note("giving up: %s", e.reason)
			}
			e.restarting = nil
			e.mu.Unlock()
			return
		}
		e.restarts++
		e.mu.Unlock()
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(50<<attempt) * time.Millisecond):
			case <-e.life.Done():
			}
		}
		p, _, err := e.launch(e.life)
		if err != nil {
			why = err.Error()
			e.log.note("restart failed: %s", why)
			continue
		}
		e.mu.Lock()
		if e.stopping {
			e.restarting = nil
			e.mu.Unlock()
			p.stop(e.env.stop, true)
			return
		}
		e.proc, e.state, e.reason = p, StateDegraded, why
		e.gen++
		e.restarting = nil
		e.mu.Unlock()
		e.log.note("restarted (restart %d)", e.restarts)
		go e.watch(p)
		return
	}
}

// current returns the running process, waiting for a restart under way.
func (e *Extension) current(ctx context.Context) (*process, int, error) {
	for {
		e.mu.Lock()
		e.beginDeferredLocked() // a deferred extension's first call
		p, gen, wait, state, reason := e.proc, e.gen, e.restarting, e.state, e.reason
		e.mu.Unlock()
		if p != nil {
			return p, gen, nil
		}
		if wait == nil {
			if reason == "" {
				reason = string(state)
			}
			return nil, 0, fmt.Errorf("%w (%s: %s)", errNotRunning, state, reason)
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

// timedOut counts a call that hit its own deadline (not a cancellation by
// the caller) and reports whether the process has now missed maxTimeouts
// in a row.
func (e *Extension) timedOut(ctx context.Context, err error) bool {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.Canceled {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.timeouts++
	if e.timeouts >= maxTimeouts {
		e.timeouts = 0
		return true
	}
	return false
}

// answered resets the crash count after any reply (a JSON-RPC error is a
// reply too: the process is alive and speaking the protocol).
func (e *Extension) answered(err error) {
	var rpcErr *jsonrpc.Error
	if err != nil && !errors.As(err, &rpcErr) {
		return
	}
	e.mu.Lock()
	e.failures, e.timeouts, e.inputCrashes = 0, 0, 0
	e.answeredOnce = true
	e.mu.Unlock()
}

// maxTimeouts is how many calls in a row may go unanswered before the
// process counts as hung.
const maxTimeouts = 3
