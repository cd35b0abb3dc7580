package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
)

// The turn: Send runs one user message to completion — request, streamed
// answer, the tool calls it makes, their results back — until the model
// stops, a hook stops it, a limit is reached or the context is cancelled;
// and what a turn sends (request) and fires when an answer is complete
// (on_message_complete).

// ErrTurnLimit ends a turn that made MaxTurns requests without the model
// stopping. Send returns it wrapped in a *TurnLimitError.
var ErrTurnLimit = errors.New("turn limit reached")

// TurnLimitError says that a turn stopped at Config.MaxTurns model
// requests. The session is consistent: every tool call has its result.
type TurnLimitError struct{ Requests int }

func (e *TurnLimitError) Error() string {
	return "stopped after " + plural.Count(e.Requests, "model request")
}

func (e *TurnLimitError) Unwrap() error { return ErrTurnLimit }

// Send runs one user message (its text and any pictures) to completion: the model answers, its tool
// calls run, their results go back, until the model stops, the turn limit
// is reached or ctx is cancelled. The session is consistent whenever Send
// returns: every tool call in it has a result.
func (a *Agent) Send(ctx context.Context, text string, images ...llm.Image) error {
	a.Start(ctx)
	user := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: text}}}
	// Pictures the user attached (@shot.png) follow the text.
	a.attach(&user, images)
	// before_message: injected context is saved with the user message it
	// was sent with, marked as an inject, and sent again, byte for byte,
	// with every later request: the conversation's prefix never changes,
	// which is what prompt caching needs, and a resumed session is the
	// one the model saw.
	a.stop.reset()
	if a.child == nil {
		a.cfg.tree.newMessage()
	}
	// A subagent's prompt comes from the model, not the user:
	// before_message is the user's (Claude's UserPromptSubmit).
	if a.cfg.Hooks != nil && a.child == nil {
		d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookBeforeMessage, Message: &text, SessionID: a.cfg.Session.ID})
		switch {
		case d.Blocked:
			return &HookStopError{By: d.BlockedBy, Reason: hook.BlockReason(d.Reason), Prompt: true}
		case d.Stopped:
			return &HookStopError{By: d.StoppedBy, Reason: d.StopReason, Prompt: true}
		}
		if inject := d.InjectText(); inject != "" {
			user.Content = append(user.Content, llm.Block{Type: llm.BlockText, Text: inject, Inject: true})
		}
		a.emitInjects(d, "user")
	}
	if a.child == nil {
		user.Content = append(user.Content, a.takeContext()...)
	}
	if waiting := a.cfg.Session.TakeDeferred(); waiting != nil {
		// A resumed run goes on from the calls a hook deferred: their
		// results, and the others', lead the new message.
		results, err := a.resumeDeferred(ctx, waiting)
		if err != nil {
			return err
		}
		user.Content = append(results, user.Content...)
	}
	if err := a.cfg.Session.Append(user); err != nil {
		return err
	}
	defer a.cfg.Session.Sync()

	stopBlocks := 0
	for turn := 0; a.cfg.MaxTurns <= 0 || turn < a.cfg.MaxTurns; turn++ {
		if err := a.overBudget(); err != nil {
			return err
		}
		if w, ok := a.cfg.Hooks.(ToolWaiter); ok {
			w.AwaitTools(ctx)
		}
		req := a.request()
		// partial is the answer streamed so far: an interrupted turn
		// keeps it in the session, as the user saw it.
		var partial strings.Builder
		resp, err := a.cfg.Provider.Complete(ctx, req, func(ev llm.Event) {
			if ev.Type == llm.EventText {
				partial.WriteString(ev.Text)
			}
			a.forward(ev)
		})
		if err != nil {
			if ctx.Err() != nil {
				if err := a.keepPartial(partial.String()); err != nil {
					return err
				}
				a.emit(Event{Type: EventNotice, Text: NoticeCancelled})
				return ctx.Err()
			}
			if a.retryWithoutPictures(err, len(req.Messages)) {
				turn--
				continue
			}
			a.stopFailure(ctx, err, partial.String())
			return err
		}
		used := a.priced(resp.Usage)
		a.usage, a.last = a.usage.Add(used), used
		a.requests++
		a.cfg.tree.spent(used.CostUSD)
		msg := resp.Message
		msg.Role = llm.RoleAssistant
		if err := a.cfg.Session.AppendUsed(msg, used); err != nil {
			return err
		}
		a.emit(Event{Type: EventMessage, Message: &msg})
		done := a.messageComplete(ctx, msg, stopBlocks > 0)
		a.usageReport(ctx, resp, used)

		calls := msg.ToolUses()
		a.emit(Event{Type: EventTurnEnd, StopReason: resp.StopReason, Usage: used})
		if len(calls) == 0 {
			if !done.Blocked {
				return nil
			}
			if stopBlocks == MaxStopBlocks {
				// Claude Code's loop guard: the block past the limit is
				// overridden, and said, not dropped without a word.
				a.emit(Event{Type: EventNotice, Text: stopCapNotice(done.BlockedBy, stopBlocks+1, hookReason(done))})
				return nil
			}
			// A hook keeps the agent going: its reason is the next
			// message, and the turn goes on.
			stopBlocks++
			a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("%s keeps the turn going: %s", done.BlockedBy, oneLine(hookReason(done)))})
			next := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: feedback(done.BlockedBy, hookReason(done))}}}
			if err := a.cfg.Session.Append(next); err != nil {
				return err
			}
			continue
		}
		run := a.allowCalls(len(calls))
		results := a.runTools(ctx, calls[:run])
		if err := a.endDeferred(results); err != nil {
			return err
		}
		a.usage = a.usage.Add(a.kids.take()) // what subagents spent
		results = append(results, a.toolBatch(ctx, calls[:run], results)...)
		for _, c := range calls[run:] {
			results = append(results, llm.Block{Type: llm.BlockToolResult, ToolUseID: c.ID, IsError: true,
				Content: fmt.Sprintf("not run: the run reached its limit of %d tool calls (--max-tool-calls)", a.cfg.tree.maxToolCalls)})
		}
		// Text the user steered in while the calls ran joins here, after
		// their results, unless the turn ends now (cancelled, stopped):
		// then it waits for TakeSteers.
		if ctx.Err() == nil {
			if by, _ := a.stop.get(); by == "" {
				results = append(results, a.steered(ctx)...)
			}
		}
		if err := a.cfg.Session.Append(llm.Message{Role: llm.RoleUser, Content: results}); err != nil {
			return err
		}
		if err := a.cfg.Session.SyncTurn(); err != nil {
			return err
		}
		if ctx.Err() != nil {
			a.emit(Event{Type: EventNotice, Text: NoticeCancelled})
			return ctx.Err()
		}
		if by, reason := a.stop.get(); by != "" {
			return &HookStopError{By: by, Reason: reason}
		}
	}
	return &TurnLimitError{Requests: a.cfg.MaxTurns}
}

// keepPartial saves the text of an interrupted answer as an assistant
// message, so that the session (and a resume of it) holds what the user
// saw, and the model knows what it had said.
func (a *Agent) keepPartial(text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return a.cfg.Session.Append(llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: text}}})
}

// request builds the provider request: the saved conversation as it is
// (a view, not a copy), and a.prefix, which keeps its encoding from
// request to request, so a request costs what the turn added.
func (a *Agent) request() *llm.Request {
	msgs := a.boundPictures(a.cfg.Session.View())
	system := a.cfg.System
	if a.systemInject != "" {
		system = strings.TrimRight(system, "\n") + "\n\n" + a.systemInject
	}
	specs := a.cfg.Tools.Specs()
	tools := make([]llm.ToolDef, len(specs))
	for i, s := range specs {
		tools[i] = llm.ToolDef{Name: s.Name, Description: s.Description, InputSchema: s.InputSchema}
	}
	// By name: extensions start in parallel and register their tools in
	// whatever order they finish, and the tools are the first thing the
	// prompt cache keys on.
	slices.SortFunc(tools, func(x, y llm.ToolDef) int { return strings.Compare(x.Name, y.Name) })
	req := &llm.Request{Model: a.cfg.Model, System: system, Messages: msgs, Tools: tools, MaxTokens: a.cfg.MaxTokens, Prefix: &a.prefix}
	a.thinking(req)
	return req
}

// forward turns provider stream events into agent events.
func (a *Agent) forward(ev llm.Event) {
	switch ev.Type {
	case llm.EventText:
		a.emit(Event{Type: EventText, Text: ev.Text})
	case llm.EventThinking:
		a.emit(Event{Type: EventThinking, Text: ev.Text})
	case llm.EventRetry:
		a.emit(Event{Type: EventRetry, Err: ev.Err, Delay: ev.Delay, Retry: ev.Retry, Retries: ev.Retries})
	}
}

// messageComplete fires on_message_complete; a block in the decision
// asks the agent not to stop yet (see Send).
func (a *Agent) messageComplete(ctx context.Context, msg llm.Message, stopHookActive bool) hook.Decision {
	if a.cfg.Hooks == nil {
		return hook.Decision{}
	}
	if a.child != nil {
		// A subagent's answers fire on_subagent_complete, once, for
		// its final one (Claude's SubagentStop; its Stop is the main
		// loop's).
		if len(msg.ToolUses()) > 0 {
			return hook.Decision{}
		}
		return a.subagentComplete(ctx, lastText([]llm.Message{msg}), stopHookActive)
	}
	var text strings.Builder
	hasToolUse := false
	for _, b := range msg.Content {
		switch b.Type {
		case llm.BlockText:
			text.WriteString(b.Text)
		case llm.BlockToolUse:
			hasToolUse = true
		}
	}
	s := text.String()
	// context_management tells a SynapsCLI extension whether context
	// phases are in use (its context_phase answer): synaps has none.
	data, _ := json.Marshal(map[string]any{"content_block_count": len(msg.Content), "has_tool_use": hasToolUse, "stop_hook_active": stopHookActive,
		"context_management": map[string]any{"enabled": false}})
	return a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnMessageComplete, Message: &s, SessionID: a.cfg.Session.ID, Data: data})
}

// hookReason is a block decision's reason without the "blocked by"
// frame, which is for tool results.
func hookReason(d hook.Decision) string {
	return hook.BlockReason(d.Reason)
}
