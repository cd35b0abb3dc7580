package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
)

// Deferred calls (Claude Code's PreToolUse "defer"): in a headless run
// (Config.DeferCalls), a call a hook defers is not run and not answered;
// the turn ends once the message's other calls have run, the session
// records what waits (session.Defer), and Send returns a *DeferredError.
// The session's next turn — `-p --resume ID` — runs the deferred calls
// first, their hooks asked again, and sends every result with its
// message. Elsewhere a defer is a confirm, as Claude Code's is.

// DeferredError ends a headless turn on deferred calls.
type DeferredError struct {
	// Calls are the deferred calls: "Bash (toolu_…)", and who deferred
	// each and why.
	Calls []string
	// Uses are the deferred calls as the model made them (id, name,
	// input).
	Uses []llm.Block
	// PromptNotSent: the calls were deferred again as a resumed run
	// began, before its prompt went to the model.
	PromptNotSent bool
}

func (e *DeferredError) Error() string {
	s := "the run ended on a deferred tool call: " + strings.Join(e.Calls, "; ")
	if e.PromptNotSent {
		s += " (deferred again; the prompt was not sent)"
	}
	return s
}

// deferrals collects the calls of one batch that hooks deferred.
type deferrals struct {
	mu    sync.Mutex
	ids   []string
	notes []string
	uses  []llm.Block
}

func (d *deferrals) add(use llm.Block, c hook.Confirm) {
	d.mu.Lock()
	defer d.mu.Unlock()
	note := fmt.Sprintf("%s (%s), deferred by %s", use.Name, use.ID, c.Subject())
	if c.Message != "" {
		note += ": " + c.Message
	}
	d.ids, d.notes, d.uses = append(d.ids, use.ID), append(d.notes, note), append(d.uses, use)
}

func (d *deferrals) take() (ids, notes []string, uses []llm.Block) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ids, notes, uses = d.ids, d.notes, d.uses
	d.ids, d.notes, d.uses = nil, nil, nil
	return ids, notes, uses
}

// deferredBy is the confirm that defers the call, if one does and this
// run defers calls.
func (a *Agent) deferredBy(confirms []hook.Confirm) (hook.Confirm, bool) {
	if !a.cfg.DeferCalls || a.child != nil {
		return hook.Confirm{}, false
	}
	for _, c := range confirms {
		if c.Defer {
			return c, true
		}
	}
	return hook.Confirm{}, false
}

// endDeferred ends the turn on the batch's deferred calls: results are
// those of the calls that ran (a deferred call's is the zero block).
func (a *Agent) endDeferred(results []llm.Block) error {
	ids, notes, uses := a.deferred.take()
	if len(ids) == 0 {
		return nil
	}
	var ran []llm.Block
	for _, b := range results {
		if b.Type != "" {
			ran = append(ran, b)
		}
	}
	if err := a.cfg.Session.Defer(ids, ran); err != nil {
		return err
	}
	if err := a.cfg.Session.Sync(); err != nil {
		return err
	}
	return &DeferredError{Calls: notes, Uses: uses}
}

// resumeDeferred runs the calls a resumed session waits on and returns
// every result of their message: the others' (saved), then theirs. A
// hook that defers one again ends the run again (the prompt is not sent:
// the next resume sends its own).
func (a *Agent) resumeDeferred(ctx context.Context, waiting *session.Deferred) ([]llm.Block, error) {
	results := append(append([]llm.Block(nil), waiting.Results...), a.runTools(ctx, waiting.Calls)...)
	if err := a.endDeferred(results); err != nil {
		var de *DeferredError
		if errors.As(err, &de) {
			de.PromptNotSent = true
		}
		return nil, err
	}
	return results, nil
}
