package extension

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
)

// Decision is the verdict of a hook chain.
type Decision struct {
	// Blocked: the tool must not run (before_tool_call), with Reason as the
	// error result the model sees and BlockedBy the extension id.
	Blocked   bool
	Reason    string
	BlockedBy string
	// Input is the tool input after every modify; nil when unchanged.
	Input      json.RawMessage
	ModifiedBy []string
	// Output is the tool output after every replace; nil when unchanged.
	Output     *string
	ReplacedBy []string
	// Confirms are collected confirm requests; the user is asked once,
	// after the chain, if nothing blocked.
	Confirms []Confirm
	// Injects are collected inject contents, in chain order.
	Injects []Inject
}

// Confirm is one extension's request to ask the user.
type Confirm struct {
	Extension string
	Message   string
}

// Inject is context one extension adds.
type Inject struct {
	Extension string
	Content   string
}

// BlockedMessage is the error result text the model sees for a block.
func BlockedMessage(extID, reason string) string {
	return fmt.Sprintf("Tool call blocked by extension %s: %s", extID, reason)
}

// subscriber is one extension's subscriptions to one hook, in chain order.
type subscriber struct {
	id   string
	ext  *Extension // nil for a broken guard
	subs []Subscription
	// broken is the fault a broken guard (a fail-closed plugin whose
	// manifest did not load) answers every call with; nil otherwise.
	broken error
	// closed: the extension's failure_policy is "closed".
	closed bool
	// transform: the extension may replace tool output.
	transform bool
}

// matches reports whether any subscription applies to the event.
func (s *subscriber) matches(spec contract.HookSpec, ev *Event, input json.RawMessage) bool {
	if !spec.ToolFilter {
		return true
	}
	for _, sub := range s.subs {
		if sub.Matches(ev.ToolName, ev.ToolRuntimeName, input) {
			return true
		}
	}
	return false
}

// dispatchTable maps hook names to subscribers; built at start and reload,
// read without locks.
type dispatchTable map[string][]*subscriber

// buildTable orders subscribers by plugin id. A fail-closed extension that
// never initialised still guards the tool hooks its permissions cover, and
// a fail-closed plugin whose manifest did not load guards what it is held
// to (Plugin.BrokenGuard), so their failure blocks instead of vanishing.
func buildTable(exts []*Extension, plugins []*Plugin) dispatchTable {
	t := dispatchTable{}
	for _, p := range plugins {
		if p.BrokenGuard == nil || p.Disabled || p.Untrusted {
			continue
		}
		byHook := map[string][]Subscription{}
		for _, s := range p.BrokenGuard {
			byHook[s.Hook] = append(byHook[s.Hook], s)
		}
		for _, h := range []string{contract.HookBeforeToolCall, contract.HookAfterToolCall} {
			if len(byHook[h]) > 0 {
				t[h] = append(t[h], &subscriber{id: p.ID, subs: byHook[h], closed: true, broken: brokenGuardReason(p.Err)})
			}
		}
	}
	for _, e := range exts {
		m := e.plugin.Manifest.Extension
		closed := m.FailurePolicy == "closed"
		byHook := map[string][]Subscription{}
		var order []string
		add := func(s Subscription) {
			if _, ok := byHook[s.Hook]; !ok {
				order = append(order, s.Hook)
			}
			byHook[s.Hook] = append(byHook[s.Hook], s)
		}
		subs := e.subs
		if !e.initialized {
			subs = m.Hooks
		}
		for _, s := range subs {
			add(s)
		}
		if closed && !e.initialized {
			for _, h := range []string{contract.HookBeforeToolCall, contract.HookAfterToolCall} {
				if _, ok := byHook[h]; !ok && m.Permissions.PermitsHook(h) {
					add(Subscription{Hook: h})
				}
			}
		}
		for _, h := range order {
			t[h] = append(t[h], &subscriber{
				id: e.ID(), ext: e, subs: byHook[h], closed: closed,
				transform: m.Permissions.Has(contract.PermToolsTransformOutput),
			})
		}
	}
	for _, subs := range t {
		slices.SortStableFunc(subs, func(a, b *subscriber) int { return strings.Compare(a.id, b.id) })
	}
	return t
}

// Confirmer asks the user to approve a tool call. It returns true to run
// it. A nil Confirmer means no interactive user: confirms block.
type Confirmer interface {
	Confirm(ctx context.Context, tool string, messages []Confirm) bool
}

// MaxChainPasses bounds how often a before_tool_call chain is walked when
// modifies keep changing the input. Each pass asks only the handlers that
// have not yet judged the current input; an input still unjudged after the
// last pass (rewriters undoing each other) is blocked.
const MaxChainPasses = 3

// dispatch runs the chain for ev. The package doc lists the chain rules.
//
// The rule the tool hooks keep: the input that runs is an input every
// matching handler has judged. A modify changes the input, so after the
// pass in which it happened the handlers that saw an older input (those
// sorted before the rewriter) are asked again about the new one; a handler
// is not asked again about an input it already judged or wrote itself.
func (h *Host) dispatch(ctx context.Context, ev *Event) Decision {
	var d Decision
	spec, ok := contract.LookupHook(ev.Kind)
	if !ok {
		return d
	}
	subs := (*h.table.Load())[ev.Kind]
	if len(subs) == 0 {
		return d
	}
	if len(spec.Actions) == 0 {
		h.observe(ctx, spec, ev, subs)
		return d
	}
	input := ev.ToolInput
	// params is the encoded event, rebuilt after a change. An extension
	// that may replace the output is sent all of it that a replacement
	// may hold (1 MiB), not the 32 KiB prefix others see: a redactor
	// working on a prefix would cut the output short.
	var params, fullParams json.RawMessage
	// paramsErr and fullParamsErr say why params and fullParams cannot be
	// sent (checkSendable); set whenever they are encoded.
	var paramsErr, fullParamsErr error
	// judged[i] is the input subs[i] last judged or wrote; nil: none yet.
	// confirms[i] is its pending confirm about that input.
	var judged []json.RawMessage
	var confirms []*Confirm
	for pass := 1; ; pass++ {
		changed := false
		for i, s := range subs {
			if !s.matches(spec, ev, input) {
				if confirms != nil {
					confirms[i] = nil // it has no say about this input
				}
				continue
			}
			if judged != nil && judged[i] != nil && sameJSON(judged[i], input) {
				continue
			}
			p, perr := &params, &paramsErr
			limit := contract.MaxToolOutputHook
			if s.transform && ev.Kind == contract.HookAfterToolCall {
				p, perr, limit = &fullParams, &fullParamsErr, contract.MaxReplaceOutput
			}
			if *p == nil {
				*p = ev.encodeLimit(limit)
				*perr = checkSendable("the "+spec.Name+" event", *p)
			}
			id := s.id
			var res HookResult
			var err error
			switch {
			case s.broken != nil:
				err = s.broken
			case *perr != nil:
				err = *perr
				s.ext.log.note("%s: %v", spec.Name, err)
			default:
				res, err = h.callHook(ctx, s, spec, *p)
			}
			if spec.ToolFilter && judged == nil {
				judged, confirms = make([]json.RawMessage, len(subs)), make([]*Confirm, len(subs))
			}
			if judged != nil {
				judged[i], confirms[i] = input, nil
			}
			if err != nil {
				if why := inputFault(err, s.ext); why != "" && ev.Kind == contract.HookBeforeToolCall && !s.closed {
					// The guard could not judge this input because of the
					// input itself. Letting it run would make an input
					// that breaks guards a way past them, so even a
					// fail-open guard blocks it (a fail-closed one blocks
					// below, as for any fault).
					d.Blocked, d.BlockedBy = true, id
					d.Reason = BlockedMessage(id, why+"; an input a guard cannot judge does not run, whatever its failure_policy")
					h.env.intercept.record(ev, id, contract.ActionBlock, nil)
					return d.withConfirms(confirms)
				}
				if s.closed && spec.ToolFilter {
					reason := fmt.Sprintf("the extension failed (%v) and its failure_policy is closed", err)
					if ev.Kind == contract.HookAfterToolCall {
						// Withheld, and later handlers see what will be kept.
						out := fmt.Sprintf("[tool output withheld: extension %s failed (%v) and its failure_policy is closed]", id, err)
						h.env.intercept.record(ev, id, contract.ActionReplace, &out)
						ev.ToolOutput, params, fullParams = &out, nil, nil
						d.Output, d.ReplacedBy = &out, append(d.ReplacedBy, id)
						continue
					}
					d.Blocked, d.BlockedBy, d.Reason = true, id, BlockedMessage(id, reason)
					h.env.intercept.record(ev, id, contract.ActionBlock, nil)
					return d.withConfirms(confirms)
				}
				if spec.ToolFilter && s.ext != nil {
					if why := s.ext.goneForGood(); why != "" {
						// Fail-open and gone for the session: every call
						// it would have judged says so, or a guard could
						// vanish with nobody noticing.
						h.env.notify.say("extension %s is not running (failed: %s), so it did not check this %s call (failure_policy open)",
							id, why, ev.ToolName)
					}
				}
				continue
			}
			switch res.Action {
			case contract.ActionBlock:
				d.Blocked, d.BlockedBy, d.Reason = true, id, BlockedMessage(id, res.Reason)
				h.env.intercept.record(ev, id, contract.ActionBlock, nil)
				return d.withConfirms(confirms)
			case contract.ActionModify:
				changed = changed || !sameJSON(res.Input, input)
				input = res.Input
				ev.ToolInput = input
				params, fullParams = nil, nil // later handlers see the new input
				if judged != nil {
					judged[i] = input // it wrote it: no need to ask it again
				}
				d.Input, d.ModifiedBy = input, append(d.ModifiedBy, id)
				h.env.intercept.record(ev, id, contract.ActionModify, nil)
			case contract.ActionReplace:
				out := *res.Output
				if len(out) > contract.MaxReplaceOutput {
					out = cutUTF8(out, contract.MaxReplaceOutput) + "…[replacement truncated]"
				}
				h.env.intercept.record(ev, id, contract.ActionReplace, &out)
				ev.ToolOutput = &out
				params, fullParams = nil, nil
				d.Output, d.ReplacedBy = &out, append(d.ReplacedBy, id)
			case contract.ActionConfirm:
				if confirms != nil {
					confirms[i] = &Confirm{id, res.Message}
				} else {
					d.Confirms = append(d.Confirms, Confirm{id, res.Message})
				}
			case contract.ActionInject:
				d.Injects = append(d.Injects, Inject{id, res.Content})
			}
		}
		if !changed || judged == nil || !h.unjudged(spec, ev, subs, judged, input) {
			return d.withConfirms(confirms)
		}
		if pass == MaxChainPasses {
			last := d.ModifiedBy[len(d.ModifiedBy)-1]
			d.Blocked, d.BlockedBy = true, last
			d.Reason = BlockedMessage(last, fmt.Sprintf(
				"the input was still being modified after %d passes through the hook chain (modified by %s), so not every guard approved the input that would run; the extensions that rewrite this input undo each other",
				MaxChainPasses, strings.Join(dedupe(d.ModifiedBy), ", ")))
			h.env.intercept.record(ev, last, contract.ActionBlock, nil)
			return d.withConfirms(confirms)
		}
	}
}

// inputFault says how a handler's fault was caused by the input rather
// than the extension — the event could not be sent, or the same request
// crashed the process and, retried, its restarted successor, while the
// extension has answered other requests before — or "" when it was not.
func inputFault(err error, e *Extension) string {
	var un *unsendableError
	if errors.As(err, &un) {
		return "the extension could not judge this call: " + un.Error() + "; send a smaller or flatter input"
	}
	var crash *CrashError
	if errors.As(err, &crash) && crash.Retry != nil && e != nil && e.provenOnOtherInput() {
		return "the extension crashed on this input twice, also after a restart (" + crash.Retry.brief() + "), so it could not judge it; it is restarted for the next call"
	}
	return ""
}

// unjudged reports whether some handler that matches input has not judged
// it yet.
func (h *Host) unjudged(spec contract.HookSpec, ev *Event, subs []*subscriber, judged []json.RawMessage, input json.RawMessage) bool {
	for i, s := range subs {
		if s.matches(spec, ev, input) && (judged[i] == nil || !sameJSON(judged[i], input)) {
			return true
		}
	}
	return false
}

// withConfirms finishes a decision: it adds the pending confirms, in chain
// order (each handler's latest, about the input that will run), and names
// each rewriter once, in the order they first rewrote.
func (d Decision) withConfirms(confirms []*Confirm) Decision {
	if len(d.ModifiedBy) > 1 {
		d.ModifiedBy = dedupe(d.ModifiedBy)
	}
	for _, c := range confirms {
		if c != nil {
			d.Confirms = append(d.Confirms, *c)
		}
	}
	return d
}

// sameJSON reports whether two inputs are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(a, b) || jsonEqual(a, b)
}

func dedupe(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// callHook sends one hook.handle and vets the answer: faults are logged
// and returned as errors, actions the hook does not allow (or replace
// without tools.transform_output) are logged and become continue. A
// malformed modify is a block.
func (h *Host) callHook(ctx context.Context, s *subscriber, spec contract.HookSpec, params json.RawMessage) (HookResult, error) {
	e := s.ext
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, h.env.hookTimeout)
	raw, err := e.call(cctx, contract.MethodHookHandle, params, callOpts{doing: "handling", what: spec.Name, retry: true})
	cancel()
	elapsed := time.Since(start)
	var res HookResult
	if err == nil {
		res, err = DecodeHookResult(raw)
		if errors.Is(err, errUnknownAction) {
			e.log.note("%s: %v; treated as continue", spec.Name, err)
			res, err = HookResult{Action: contract.ActionContinue}, nil
		}
		if errors.Is(err, errMalformedModify) {
			e.log.note("%s: %v; blocking the call", spec.Name, err)
			res, err = HookResult{Action: contract.ActionBlock, Reason: "malformed modify result: " + err.Error()}, nil
		}
	}
	switch {
	case err != nil:
		timedOut := errors.Is(err, context.DeadlineExceeded)
		if timedOut {
			err = fmt.Errorf("no answer to %s within %s", spec.Name, h.env.hookTimeout)
		}
		e.log.note("%s: %v", spec.Name, err)
		h.env.trace.hook(spec.Name, e, "fault", elapsed, timedOut, err)
		if timedOut && e.firstTimeout() {
			// A hung guard costs the whole deadline on every call; the
			// user must hear of it, once, not only the log.
			then := "synaps went on without it"
			if spec.ToolFilter {
				then = "the call went on without it (failure_policy open)"
				if s.closed {
					then = "the call was blocked (failure_policy closed)"
				}
			}
			h.env.notify.say("extension %s did not answer %s within %s, so %s; every call it hangs on waits that long (said once; `synaps extensions logs %s` has more)",
				e.ID(), spec.Name, h.env.hookTimeout, then, e.ID())
		}
		return res, err
	case !spec.Allows(res.Action):
		e.log.note("%s: action %q is not allowed for this hook; treated as continue", spec.Name, res.Action)
		res = HookResult{Action: contract.ActionContinue}
	case res.Action == contract.ActionReplace && !s.transform:
		e.log.note("%s: replace needs the %q permission; output left unchanged", spec.Name, contract.PermToolsTransformOutput)
		res = HookResult{Action: contract.ActionContinue}
	}
	h.env.trace.hook(spec.Name, e, string(res.Action), elapsed, false, nil)
	return res, nil
}

// observe runs the handlers of a hook that cannot change anything
// concurrently (on_session_end must not wait on each extension in turn)
// and waits for them all.
func (h *Host) observe(ctx context.Context, spec contract.HookSpec, ev *Event, subs []*subscriber) {
	params := ev.encode()
	if err := checkSendable("the "+spec.Name+" event", params); err != nil {
		for _, s := range subs {
			s.ext.log.note("%s: %v", spec.Name, err)
		}
		return
	}
	var wg sync.WaitGroup
	for _, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = h.callHook(ctx, s, spec, params)
		}()
	}
	wg.Wait()
}
