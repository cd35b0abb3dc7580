package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// judged is what decided a tool call before its tool: the tool and the
// input that runs, or the refusal the model gets instead.
type judged struct {
	t       tool.Tool
	spec    tool.Spec
	input   json.RawMessage
	refusal string
	// pre is context the before_tool_call answers gave (Claude's
	// PreToolUse additionalContext): it goes with the result.
	pre []hook.Inject
	// deferred is the hook's defer (Claude's permissionDecision
	// "defer" in -p): the call is neither run nor answered.
	deferred *hook.Confirm
}

// judge takes one tool call through everything before its tool — the
// schema gate, the before_tool_call chain, required_guards and the
// permission policy — filling rep as it goes. The real call (runTool)
// and `synaps hooks test` (Probe) share it, so what the test says is
// what a call does. probe: nobody is asked; a call that would be asked
// about ends with rep's verdict ask.
func (a *Agent) judge(ctx context.Context, use llm.Block, call *ToolCall, c hook.Confirmer, rep *CallReport, probe bool) judged {
	refuse := func(by, msg string) judged {
		rep.block(by, msg)
		return judged{refusal: a.capped(msg)}
	}
	t, spec, ok := a.lookupTool(use.Name)
	if !ok {
		if msg := a.child.notAllowed(use.Name, a.cfg.Tools.Names()); msg != "" {
			return refuse("tools", msg)
		}
		return refuse("tools", fmt.Sprintf("unknown tool %q; the available tools are: %s", use.Name, strings.Join(a.cfg.Tools.Names(), ", ")))
	}
	// The schema gate comes before the hooks: no guard or extension ever
	// sees an input the tool would refuse (or one nested deep enough to
	// crash its parser), and unknown top-level fields are gone.
	input, err := tool.Prepare(spec, call.Input)
	if err != nil {
		return refuse("schema", err.Error())
	}
	call.Input, rep.Input = input, input
	var confirms []hook.Confirm
	var grantedBy string // a hook that answered the permission question
	var pre []hook.Inject
	if a.cfg.Hooks != nil {
		// The chain's confirms are asked by permit, together with any
		// permission question, about the input that will run.
		var chain hook.Report
		d := a.cfg.Hooks.BeforeToolCall(hook.WithReport(ctx, &chain), spec, input, a.cfg.Session.ID, deferConfirms{})
		rep.Links = chain.Links
		confirms, grantedBy, pre = d.Confirms, d.AllowedBy, d.Contexts
		call.ModifiedBy = d.ModifiedBy
		if d.Input != nil {
			rep.Final = d.Input
		}
		if c, ok := a.deferredBy(d.Confirms); ok && !probe && !d.Blocked && !d.Stopped {
			rep.Verdict, rep.By = VerdictAsk, deciderID(rep.Links, c.Extension, contract.ActionConfirm)
			return judged{deferred: &c}
		}
		if d.Stopped {
			a.stop.set(d.StoppedBy, d.StopReason)
			call.BlockedBy = d.StoppedBy
			return refuse(deciderID(rep.Links, d.StoppedBy, contract.ActionStop), fmt.Sprintf("not run: %s stopped the turn: %s", d.StoppedBy, d.StopReason))
		}
		if d.Blocked {
			if d.Input != nil {
				call.Input = d.Input
			}
			call.BlockedBy = d.BlockedBy
			return refuse(deciderID(rep.Links, d.BlockedBy, contract.ActionBlock), withContexts(d.Reason, pre))
		}
	}
	rep.skippedLinks(a.cfg.Skipped, spec, input)
	if g, why := requiredMissing(a.cfg.RequiredGuards, rep.Links); g != "" {
		rep.Links = append(rep.Links, hook.LinkReport{ID: "required:" + g, State: hook.StateFailed, Fault: why, Action: string(contract.ActionBlock)})
		call.BlockedBy = g
		return refuse("required:"+g, requiredRefusal(g, why))
	}
	if rep.Final != nil {
		// A modify passes the same gate.
		if input, err = tool.Prepare(spec, rep.Final); err != nil {
			call.Input = rep.Final
			return refuse("schema", err.Error())
		}
		call.Input = input
	}
	refusal, by, final := a.permit(ctx, spec, input, confirms, c, grantedBy, rep, probe)
	if final != nil {
		// A permission hook wrote the input that runs (or was refused).
		input, call.Input = final, final
	}
	if refusal != "" {
		call.BlockedBy, call.Refused = by, by == ""
		return judged{refusal: a.capped(refusal)}
	}
	return judged{t: t, spec: spec, input: input, pre: pre}
}

// deciderID is the report id of the link (plugin id owner) whose action
// decided the call: the last link of that owner that answered it.
func deciderID(links []hook.LinkReport, owner string, action contract.Action) string {
	for i := len(links) - 1; i >= 0; i-- {
		l := links[i]
		answered := l.Action == string(action) || (action == contract.ActionContinue && l.Action == "allow")
		if (answered || l.State == hook.StateFailed) && linkOwner(l.ID) == owner {
			return l.ID
		}
	}
	for i := len(links) - 1; i >= 0; i-- {
		if linkOwner(links[i].ID) == owner {
			return links[i].ID
		}
	}
	return owner
}

// linkOwner is the plugin (or Claude settings file) a report id belongs
// to, as the chain's decisions name it (hook.OwnerOf).
func linkOwner(id string) string { return hook.OwnerOf(id) }

// Probe decides one tool call as the agent would decide it — schema
// gate, before_tool_call chain (its extensions and hooks run for real),
// required_guards, permission rules and mode — without running the tool
// or asking anyone: `synaps hooks test` and `synaps replay`. A call that
// would be asked about has the verdict ask. sub, when set, makes it a
// subagent's call, as a guard sees it.
func (a *Agent) Probe(ctx context.Context, name string, input json.RawMessage, sub *hook.Subagent) *CallReport {
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if sub != nil {
		ctx = hook.WithSubagent(ctx, sub)
	}
	ctx = hook.WithToolUse(ctx, &hook.ToolUse{ID: "toolu_synaps_hooks_test", Started: time.Now()})
	rep := &CallReport{Tool: name, Input: input, Verdict: VerdictAllow}
	if sub != nil {
		rep.Agent = sub.ID
	}
	call := &ToolCall{Name: name, Input: input, InputRequested: input}
	a.judge(ctx, llm.Block{Type: llm.BlockToolUse, Name: name, Input: input}, call, nil, rep, true)
	return rep
}
