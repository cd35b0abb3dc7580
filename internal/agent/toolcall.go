package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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

	t, spec, ok := a.lookupTool(use.Name)
	if !ok {
		if msg := a.child.notAllowed(use.Name, a.cfg.Tools.Names()); msg != "" {
			return finish(a.capped(msg), true)
		}
		return finish(a.capped(fmt.Sprintf("unknown tool %q; the available tools are: %s", use.Name, strings.Join(a.cfg.Tools.Names(), ", "))), true)
	}
	// The schema gate comes before the hooks: no guard or extension ever
	// sees an input the tool would refuse (or one nested deep enough to
	// crash its parser), and unknown top-level fields are gone.
	input, err := tool.Prepare(spec, input)
	if err != nil {
		return finish(a.capped(err.Error()), true)
	}
	call.Input = input
	var c hook.Confirmer
	if a.cfg.Confirmer != nil {
		c = timedConfirmer{a.cfg.Confirmer, a.now, &waited}
	}
	var confirms []hook.Confirm
	var grantedBy string // a hook that answered the permission question
	// pre is context a before_tool_call answer gave (Claude's PreToolUse
	// additionalContext): it goes with the result, as an after one's.
	var pre []hook.Inject
	if a.cfg.Hooks != nil {
		// The chain's confirms are asked by permit, together with any
		// permission question, about the input that will run.
		d := a.cfg.Hooks.BeforeToolCall(ctx, spec, input, a.cfg.Session.ID, deferConfirms{})
		confirms, grantedBy, pre = d.Confirms, d.AllowedBy, d.Contexts
		call.ModifiedBy = d.ModifiedBy
		if c, ok := a.deferredBy(d.Confirms); ok && !d.Blocked && !d.Stopped {
			// Not run, not answered: the turn ends after this batch.
			a.deferred.add(use, c)
			call.BlockedBy = c.Extension
			call.Output = "deferred by " + c.Subject() + ": the run ends before this call"
			a.emit(Event{Type: EventToolEnd, Tool: call})
			return llm.Block{}
		}
		if d.Stopped {
			a.stop.set(d.StoppedBy, d.StopReason)
			call.BlockedBy = d.StoppedBy
			return finish(a.capped(fmt.Sprintf("not run: %s stopped the turn: %s", d.StoppedBy, d.StopReason)), true)
		}
		if d.Blocked {
			if d.Input != nil {
				call.Input = d.Input
			}
			call.BlockedBy = d.BlockedBy
			return finish(a.capped(withContexts(d.Reason, pre)), true)
		}
		if d.Input != nil {
			// A modify passes the same gate.
			if input, err = tool.Prepare(spec, d.Input); err != nil {
				call.Input = d.Input
				return finish(a.capped(err.Error()), true)
			}
			call.Input = input
		}
	}
	if refusal, by := a.permit(ctx, spec, input, confirms, c, grantedBy); refusal != "" {
		call.BlockedBy, call.Refused = by, by == ""
		return finish(a.capped(refusal), true)
	}
	var res tool.Result
	if at, ok := t.(*agentTool); ok {
		// The agent tool's child runs inside this loop, after the same
		// hooks and permission check as any call.
		res = a.runSubagent(ctx, at, use.ID, input)
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
