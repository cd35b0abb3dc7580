package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
)

// steering holds what the user sent while a turn ran, oldest first, until
// the turn's next model request takes it (Steer). Its own lock: Steer is
// called from a UI or a client goroutine while Send runs.
type steering struct {
	mu    sync.Mutex
	texts []string
}

// Steer adds text to the running turn without restarting it: the text
// joins the conversation at the turn's next model request, after the
// results of the tool calls in flight, as the user's words, and passes
// the before_message hooks as any message does (a block drops it, with
// a notice). EventSteer says when it joined. Safe to call from any
// goroutine, while Send runs or not.
//
// A turn whose model stops without another request leaves the text
// waiting: the caller takes it with TakeSteers and sends it as a message
// of its own (an idle session takes steering as a new message).
func (a *Agent) Steer(text string) {
	a.steer.mu.Lock()
	a.steer.texts = append(a.steer.texts, text)
	a.steer.mu.Unlock()
}

// TakeSteers returns the steered texts no request has taken yet, oldest
// first, and forgets them.
func (a *Agent) TakeSteers() []string {
	a.steer.mu.Lock()
	defer a.steer.mu.Unlock()
	t := a.steer.texts
	a.steer.texts = nil
	return t
}

// steered is the waiting steered text as blocks for the user message that
// carries the tool results, each past before_message; an inject a hook
// adds goes with it, marked as one.
func (a *Agent) steered(ctx context.Context) []llm.Block {
	var blocks []llm.Block
	for _, text := range a.TakeSteers() {
		if a.cfg.Hooks != nil {
			d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookBeforeMessage, Message: &text, SessionID: a.cfg.Session.ID})
			switch {
			case d.Blocked:
				a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("steered text not sent: %s blocked it: %s", d.BlockedBy, oneLine(hookReason(d)))})
				continue
			case d.Stopped:
				a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("steered text not sent: %s stopped it: %s", d.StoppedBy, oneLine(d.StopReason))})
				continue
			}
			blocks = append(blocks, llm.Block{Type: llm.BlockText, Text: text})
			if inject := d.InjectText(); inject != "" {
				blocks = append(blocks, llm.Block{Type: llm.BlockText, Text: inject, Inject: true})
			}
			a.emitInjects(d, "user")
		} else {
			blocks = append(blocks, llm.Block{Type: llm.BlockText, Text: text})
		}
		a.emit(Event{Type: EventSteer, Text: text})
	}
	return blocks
}
