package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// One tool call, from the model's block to its result: the schema gate,
// before_tool_call, the permission check, the tool (or a subagent), the
// output cap and after_tool_call. CallTool runs the same path outside a
// turn (`synaps mcp serve`); timedConfirmer keeps the time spent asking
// the user out of the call's duration.

// runTool runs one tool call through before_tool_call, input validation,
// the tool and after_tool_call, and returns its result block.
func (a *Agent) runTool(ctx context.Context, use llm.Block) llm.Block {
	start := a.now()
	// waited is the time spent waiting for the user to answer a confirm:
	// not part of the call's duration.
	var waited time.Duration
	input := use.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	call := &ToolCall{ID: use.ID, Name: use.Name, Input: input, InputRequested: input}
	// Links that name the call (a Claude hook's tool_use_id and
	// duration_ms) read it from the call's context.
	ctx = hook.WithToolUse(ctx, &hook.ToolUse{ID: use.ID, Started: time.Now()})
	a.emit(Event{Type: EventToolStart, Tool: call})
	finish := func(out string, isErr bool) llm.Block {
		call.Output, call.IsError, call.Duration = out, isErr, a.now().Sub(start)-waited
		a.emit(Event{Type: EventToolEnd, Tool: call})
		return llm.Block{Type: llm.BlockToolResult, ToolUseID: use.ID, Content: out, IsError: isErr}
	}

	var c hook.Confirmer
	if a.cfg.Confirmer != nil {
		c = timedConfirmer{a.cfg.Confirmer, a.now, &waited}
	}
	rep := &CallReport{ToolUseID: use.ID, Tool: use.Name, Input: input, Verdict: VerdictAllow}
	if sub := hook.SubagentOf(ctx); sub != nil {
		rep.Agent = sub.ID
	}
	call.Report = rep
	defer a.keepReport(rep)
	j := a.judge(ctx, use, call, c, rep, false)
	if j.deferred != nil {
		// Not run, not answered: the turn ends after this batch.
		a.deferred.add(use, *j.deferred)
		call.BlockedBy = j.deferred.Extension
		call.Output = "deferred by " + j.deferred.Subject() + ": the run ends before this call"
		a.emit(Event{Type: EventToolEnd, Tool: call})
		return llm.Block{}
	}
	if j.refusal != "" {
		return finish(j.refusal, true)
	}
	t, spec, input, pre := j.t, j.spec, j.input, j.pre
	var err error
	var res tool.Result
	if at, ok := t.(*agentTool); ok {
		// The agent tool's child runs inside this loop, after the same
		// hooks and permission check as any call.
		res = a.runSubagent(ctx, at, use.ID, input)
	} else if ut, ok := t.(userTool); ok {
		res = a.runUserTool(ctx, ut, input, &waited) // userask.go
	} else {
		res, err = t.Run(ctx, input)
	}
	switch {
	case err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil:
		// Not the tool's failure: the turn was stopped (Esc, abort,
		// session/cancel). Said as for the calls that had not started,
		// not as Go's "context canceled".
		res = tool.Result{Output: "cancelled by the user while it ran; it may have taken effect in part", IsError: true}
	case err != nil:
		res = tool.Result{Output: fmt.Sprintf("tool %s failed: %v", use.Name, err), IsError: true}
	}
	call.Diff = res.Diff
	// Cut before the hooks: a redactor must see all of what the model
	// will get, and what the model gets is what the hooks saw.
	res.Output = a.capped(res.Output)
	if a.cfg.Hooks != nil {
		var d hook.Decision
		if rh, ok := a.cfg.Hooks.(ResultHooks); ok {
			d = rh.AfterToolResult(ctx, spec, input, res, a.cfg.Session.ID)
		} else {
			d = a.cfg.Hooks.AfterToolCall(ctx, spec, input, res.Output, res.IsError, a.cfg.Session.ID)
		}
		if d.Output != nil {
			// A replacement is re-sent with every later request and saved
			// at the cap, so it is held to the same cap: the model gets
			// no more than the session keeps.
			res.Output = a.capped(*d.Output)
			call.ReplacedBy = d.ReplacedBy
		}
		if cs := append(pre, d.Contexts...); len(cs) > 0 {
			res.Output = a.capped(withContexts(res.Output, cs))
		}
		if d.Stopped {
			a.stop.set(d.StoppedBy, d.StopReason)
		}
	}
	return withPictures(finish(res.Output, res.IsError), res.Images())
}

// capped bounds what a tool result says, whoever wrote it (the tool, a
// guard's block reason, an input error quoting the model's keys, an
// after_tool_call replacement): results are saved and re-sent with every
// later request.
func (a *Agent) capped(s string) string { return tool.CapOutput(s, a.cfg.MaxToolOutput) }

// timedConfirmer adds the time each Confirm takes to *waited.
type timedConfirmer struct {
	hook.Confirmer
	now    func() time.Time
	waited *time.Duration
}

func (t timedConfirmer) Confirm(ctx context.Context, tool string, msgs []hook.Confirm) bool {
	start := t.now()
	defer func() { *t.waited += t.now().Sub(start) }()
	return t.Confirmer.Confirm(ctx, tool, msgs)
}

// CallTool runs one tool call outside a model turn, exactly as a model's
// call runs (input gate, before_tool_call, the tool, after_tool_call), and
// returns what the model would get. `synaps mcp serve` uses it, so a
// guard protects an MCP client's calls too. It needs no provider.
func (a *Agent) CallTool(ctx context.Context, id, name string, input json.RawMessage) tool.Result {
	b := a.runTool(ctx, llm.Block{Type: llm.BlockToolUse, ID: id, Name: name, Input: input})
	res := tool.Result{Output: b.Content, IsError: b.IsError}
	for _, im := range b.Images {
		if res.Media == nil {
			res.Media = &tool.Media{}
		}
		res.Media.Images = append(res.Media.Images, tool.Image{MediaType: im.MediaType, Data: im.Data})
	}
	return res
}

// Ask times an Asker's question, or a plain Confirmer's yes or no.
func (t timedConfirmer) Ask(ctx context.Context, q Question) Answer {
	start := t.now()
	defer func() { *t.waited += t.now().Sub(start) }()
	return askUser(ctx, t.Confirmer, q)
}
