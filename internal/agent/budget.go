package agent

import (
	"fmt"
	"sync"

	"github.com/synaps-cli/synaps/internal/plural"
)

// budget is what the whole tree of a run — the agent the user talks to
// and every subagent it starts, side by side or one after another — has
// spent against the limits the user set (--max-tool-calls,
// --max-budget-usd, --max-turns). One budget is shared by the tree: a
// subagent's tool calls, dollars and model requests count against the
// parent's limits and stop it, as they stop the parent. Before, each
// child counted for itself: under --max-tool-calls 3 a subagent made 20
// calls, under --max-budget-usd 1 it spent $4.70.
//
// Subagents run in parallel, so it is safe for concurrent use.
type budget struct {
	// The user's limits; 0: none.
	maxToolCalls int
	maxCostUSD   float64
	maxRequests  int // per user message (--max-turns)

	mu        sync.Mutex
	children  bool    // a subagent has run
	toolCalls int     // over the run
	costUSD   float64 // over the run
	requests  int     // since the user's message began
}

// newBudget is the budget of a run started by cfg's limits.
func newBudget(cfg Config) *budget {
	return &budget{maxToolCalls: cfg.MaxToolCalls, maxCostUSD: cfg.MaxCostUSD, maxRequests: cfg.MaxTurns}
}

// newMessage starts the per-message count (--max-turns) again: the user
// sent a message.
func (b *budget) newMessage() {
	b.mu.Lock()
	b.requests = 0
	b.mu.Unlock()
}

// spent records one model request of any agent of the tree and its cost.
func (b *budget) spent(costUSD float64) {
	b.mu.Lock()
	b.requests++
	b.costUSD += costUSD
	b.mu.Unlock()
}

// takeCalls reserves up to n tool calls and returns how many the limit
// lets run: the rest are answered "not run" so the session stays valid.
// Reserved before they run, so that children side by side cannot both
// take the last one.
func (b *budget) takeCalls(n int) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.maxToolCalls > 0 {
		n = min(n, max(0, b.maxToolCalls-b.toolCalls))
	}
	b.toolCalls += n
	return n
}

// exhausted is the limit the tree has reached, if any, before another
// model request. child says who asks: the root's --max-turns stop is a
// TurnLimitError as it always was; a child's names the flag.
func (b *budget) exhausted(child bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.maxCostUSD > 0 && b.costUSD >= b.maxCostUSD {
		return &LimitError{Flag: "--max-budget-usd", What: fmt.Sprintf("the run cost $%.4f, at or over the budget of $%.4f%s", b.costUSD, b.maxCostUSD, b.tree())}
	}
	if b.maxToolCalls > 0 && b.toolCalls >= b.maxToolCalls {
		return &LimitError{Flag: "--max-tool-calls", What: fmt.Sprintf("%s made, the most allowed%s", plural.Count(b.toolCalls, "tool call")+plural.Pick(b.toolCalls, " was", " were"), b.tree())}
	}
	if b.maxRequests > 0 && b.requests >= b.maxRequests {
		if !child {
			return &TurnLimitError{Requests: b.requests}
		}
		return &LimitError{Flag: "--max-turns", What: fmt.Sprintf("this message's work made %s, the most allowed, subagents included", plural.Count(b.requests, "model request"))}
	}
	return nil
}

// childStarts records that a subagent shares the budget from now on.
func (b *budget) childStarts() {
	b.mu.Lock()
	b.children = true
	b.mu.Unlock()
}

// tree notes that a limit counted the subagents too, once there were any.
func (b *budget) tree() string {
	if b.children {
		return ", subagents included"
	}
	return ""
}
