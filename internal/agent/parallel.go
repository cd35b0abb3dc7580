package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/procs"
)

// MaxParallelTools bounds how many calls of one model turn run at once.
const MaxParallelTools = 8

// runTools runs one turn's tool calls and returns their results in the
// model's order. Consecutive read-only calls (tool.Spec.ReadOnly: read,
// grep, find, ls, extension tools that declare it) run side by side, hook
// chains included, at most MaxParallelTools at a time; a call that may
// change things (bash, write, edit, any other tool) runs alone, after
// everything before it and before everything after it. So the changing
// calls keep their relative order, and a read the model asked for after
// a write sees the write, as Claude Code orders them. Questions to the
// user are asked one at a time (permit).
func (a *Agent) runTools(ctx context.Context, calls []llm.Block) []llm.Block {
	results := make([]llm.Block, len(calls))
	for i := 0; i < len(calls); {
		j, limit := i+1, MaxParallelTools
		switch {
		case a.isAgentCall(calls[i]):
			// Subagents of one turn run side by side too, a few at a
			// time: each is a model conversation of its own.
			for j < len(calls) && a.isAgentCall(calls[j]) {
				j++
			}
			limit = a.cfg.Subagents.parallel()
		case a.readOnly(calls[i]):
			for j < len(calls) && a.readOnly(calls[j]) && !a.isAgentCall(calls[j]) {
				j++
			}
		}
		a.runBatch(ctx, calls[i:j], results[i:j], limit)
		i = j
	}
	return results
}

// runBatch runs calls side by side into out (one call runs on this
// goroutine).
func (a *Agent) runBatch(ctx context.Context, calls, out []llm.Block, limit int) {
	if len(calls) == 1 {
		out[0] = a.runOne(ctx, calls[0])
		return
	}
	// CPU work side by side (greps over a large tree): every P while it
	// runs, not the one synaps waits on otherwise. Subagents side by side
	// mostly wait on their models; their own batches of tools widen.
	if !a.isAgentCall(calls[0]) {
		defer procs.Widen()()
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for k, c := range calls {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[k] = a.runOne(ctx, c)
		}()
	}
	wg.Wait()
}

// runOne runs a call unless the turn was cancelled before it started.
func (a *Agent) runOne(ctx context.Context, c llm.Block) llm.Block {
	if ctx.Err() != nil {
		return llm.Block{Type: llm.BlockToolResult, ToolUseID: c.ID, Content: "cancelled by the user before it ran", IsError: true}
	}
	if by, reason := a.stop.get(); by != "" {
		return llm.Block{Type: llm.BlockToolResult, ToolUseID: c.ID, Content: fmt.Sprintf("not run: %s stopped the turn: %s", by, reason), IsError: true}
	}
	return a.runTool(ctx, c)
}

// readOnly reports whether the call's tool declares that it changes
// nothing; an unknown tool does not.
func (a *Agent) readOnly(c llm.Block) bool {
	_, spec, ok := a.lookupTool(c.Name)
	return ok && spec.ReadOnly
}
