package agent

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/hook"
)

// What hooks can do to a turn beyond one call: keep a prompt from the
// model (a block on before_message), end the turn (the stop action of a
// tool hook or before_message), keep the agent from stopping (a block on
// on_message_complete: Claude Code's Stop hook with decision:block), and
// add context after a tool's result.

// ErrPromptBlocked is a prompt a before_message hook kept from the model.
var ErrPromptBlocked = errors.New("prompt blocked by a hook")

// ErrStopped is a turn a hook ended (the stop action).
var ErrStopped = errors.New("turn stopped by a hook")

// HookStopError says which hook kept a prompt from the model or ended the
// turn, and why. The session is consistent: a blocked prompt is not in
// it, and every tool call that ran has its result.
type HookStopError struct {
	By, Reason string
	// Prompt: the prompt was never sent (a before_message block or stop).
	Prompt bool
}

func (e *HookStopError) Error() string {
	if e.Prompt {
		return fmt.Sprintf("the prompt was not sent: %s blocked it: %s", e.By, e.Reason)
	}
	return fmt.Sprintf("%s stopped the turn: %s", e.By, e.Reason)
}

func (e *HookStopError) Unwrap() error {
	if e.Prompt {
		return ErrPromptBlocked
	}
	return ErrStopped
}

// MaxStopBlocks bounds how often on_message_complete (Claude's Stop) or
// on_subagent_complete (SubagentStop) may keep one turn going: a hook
// that always says "not yet" must not loop forever. 8 blocks in a row are
// honoured and the 9th is overridden, as in Claude Code 2.1.332 (its
// CLAUDE_CODE_STOP_HOOK_BLOCK_CAP default), so a loop plugin written for
// Claude runs as many iterations.
const MaxStopBlocks = 8

// stopCapNotice tells the user that a block past MaxStopBlocks was
// overridden: the turn ends although a hook asked it to go on.
func stopCapNotice(by string, n int, reason string) string {
	return fmt.Sprintf("%s blocked the turn from ending %d times in a row; the turn ends anyway (the limit is %d), and its reason is dropped: %s "+
		"(a Stop or SubagentStop hook should let the turn end while stop_hook_active is true)", by, n, MaxStopBlocks, oneLine(reason))
}

// stopState is a stop asked for during the current turn; calls running
// side by side may ask, so it has its own lock.
type stopState struct {
	mu         sync.Mutex
	by, reason string
}

func (s *stopState) set(by, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == "" {
		s.by, s.reason = by, reason
	}
}

func (s *stopState) get() (by, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.by, s.reason
}

func (s *stopState) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.by, s.reason = "", ""
}

// withContexts adds the contexts hooks gave after a tool's result, each
// framed and attributed as injects are.
func withContexts(out string, cs []hook.Inject) string {
	if len(cs) == 0 {
		return out
	}
	var b strings.Builder
	b.WriteString(out)
	for _, c := range cs {
		fmt.Fprintf(&b, "\n\n<hook-context from=%q>\n%s\n</hook-context>", c.Extension, c.Content)
	}
	return b.String()
}

// feedback is the message that keeps the agent going after an
// on_message_complete block, in the form the model can tell from the
// user's words.
func feedback(by, reason string) string {
	return fmt.Sprintf("<hook-feedback from=%q>\n%s\n</hook-feedback>", by, reason)
}
