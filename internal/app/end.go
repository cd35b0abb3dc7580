package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
)

// The end of a session is bounded, so quitting never hangs on an
// extension:
//
//   - on_session_end hooks get the hook deadline (extension_hook_timeout_ms,
//     default 5 s), but at most EndHookBudget for all of them together;
//   - stopping the extensions (shutdown request, EOF, SIGTERM) gets at most
//     EndStopBudget more, after which those still running are killed.
//
// A SIGINT (Ctrl-C) or SIGTERM that arrives while the session ends cuts
// both short at once: hooks are abandoned and extensions killed. Before,
// every such signal was swallowed for as long as the hooks took.
const (
	EndHookBudget = 10 * time.Second
	EndStopBudget = 3 * time.Second
)

// endNoticeAfter is how long the end may take before the user is told
// what synaps waits for and how to stop waiting.
const endNoticeAfter = time.Second

// Close ends the session (on_session_end) and stops every extension,
// within the budget above; ctx ending, or a SIGINT or SIGTERM arriving
// meanwhile, ends it at once.
func (a *App) Close(ctx context.Context) error {
	hookBudget, stopBudget := a.endBudgets()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	say := func(msg string) {
		if a.OnEnding != nil {
			a.OnEnding(msg)
		}
	}
	// Registered for the whole end, so no signal is swallowed: before,
	// cmd/synaps's SIGTERM handler took every one while hooks hung.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var signalled atomic.Bool
	go func() {
		select {
		case <-sigs:
			signalled.Store(true)
			cancel()
		case <-ctx.Done():
		}
	}()
	notice := time.AfterFunc(endNoticeAfter, func() {
		say(fmt.Sprintf("ending the session: waiting for extensions and MCP servers to stop (at most %s); press Ctrl-C to quit now", hookBudget+stopBudget))
	})

	var err error
	hctx, hcancel := context.WithTimeout(ctx, hookBudget)
	if a.Agent != nil {
		reason := a.EndReason
		if reason == "" {
			reason = "other"
		}
		err = a.Agent.EndBecause(hctx, reason)
		a.Agent = nil
	} else if a.Session != nil {
		err = a.Session.Close()
	}
	if errors.Is(hctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		say(fmt.Sprintf("on_session_end hooks did not finish within %s; stopped waiting for them", hookBudget))
	}
	hcancel()
	a.closeCheckpoints() // checkpoints.go
	// MCP servers stop while the extensions do: each step of a stdio
	// server's stop is mcp.DefaultTerminateDuration.
	mcpDone := make(chan struct{})
	go func() {
		defer close(mcpDone)
		a.stopSidecars()
		a.closeLSP()
		if a.MCP != nil {
			a.MCP.Close()
		}
	}()
	if a.Host != nil {
		sctx, scancel := context.WithTimeout(ctx, stopBudget)
		a.Host.ShutdownContext(sctx)
		scancel()
	}
	<-mcpDone
	notice.Stop()
	if signalled.Load() {
		say("stopped waiting for extensions (signal): those still running were killed")
	}
	return err
}

// endBudgets are how long on_session_end hooks may take in all, and then
// stopping the extensions.
func (a *App) endBudgets() (hooks, stop time.Duration) {
	if a.endBudget != nil {
		return a.endBudget[0], a.endBudget[1]
	}
	return a.hookBudget(), EndStopBudget
}

// hookBudget is how long on_session_end hooks may take in all.
func (a *App) hookBudget() time.Duration {
	d := hookTimeout(a.Config)
	if d <= 0 {
		d = contract.MethodDeadlines[contract.MethodHookHandle]
	}
	return min(d, EndHookBudget)
}
