package extension

// An extension as a hook.Link: the chain in internal/hook decides who is
// asked and what an answer does; this file sends one hook.handle and vets
// the answer, and builds the chain's table from the running set.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// link is an extension's place in the hook chains.
type link struct {
	ext *Extension
	// transform: the extension may replace tool output.
	transform bool
	// perms are the permissions its manifest holds, for the actions
	// that need one beyond the hook's (contract.ActionPermissions).
	perms contract.Permissions
	// closed: its failure_policy is "closed" (said in the first-timeout
	// notice).
	closed bool
	// starting: the table was built while the extension was starting,
	// so its places are every hook its permissions cover, and it answers
	// only for those it then subscribed to (holds).
	starting bool
}

func (l *link) ID() string { return l.ext.ID() }

// AwaitStart waits, before the hook's deadline begins (hook.Starter), for
// an extension still starting in the background (Host.Begin) and, when it
// holds a place for ev, for the first start of its process if its answer
// came from the cache: a deferred guard's first judged call starts every
// deferred guard side by side. A start that fails is Handle's to report.
func (l *link) AwaitStart(ctx context.Context, spec contract.HookSpec, ev *hook.Event) {
	e := l.ext
	// Every hook dispatch comes here: a running extension returns at
	// once, before holds builds its places.
	if !e.awaitStart(ctx) || !e.firstLaunchPending() || !e.holds(spec, ev) {
		return
	}
	if e.isDeferred() && e.env.startDeferredGuards != nil {
		e.env.startDeferredGuards()
	}
	e.firstLaunch(ctx)
}

// Handle sends one hook.handle and vets the answer: faults are logged and
// returned as errors, actions the hook does not allow (or replace without
// tools.transform_output) are logged and become continue. A malformed
// modify is a block. An event beyond the send bounds is not sent.
func (l *link) Handle(ctx context.Context, spec contract.HookSpec, ev *hook.Event, params json.RawMessage) (hook.Result, error) {
	e := l.ext
	if l.starting {
		// Started in the background (Host.Begin): wait for it (the chain
		// has, AwaitStart), then answer only for what it subscribed to.
		if !e.awaitStart(ctx) {
			return hook.Result{}, l.fault(spec, fmt.Errorf("still starting: %w", ctx.Err()), 0)
		}
		if !e.holds(spec, ev) {
			return hook.Result{Action: contract.ActionContinue}, nil
		}
	}
	if !withinSendBounds(params) {
		err := checkSendable("the "+spec.Name+" event", params)
		e.log.note("%s: %v", spec.Name, err)
		return hook.Result{}, err
	}
	start := time.Now()
	raw, err := e.call(ctx, contract.MethodHookHandle, jsonrpc.Encoded(params), callOpts{doing: "handling", what: spec.Name, retry: true})
	elapsed := time.Since(start)
	var res hook.Result
	if err == nil {
		res, err = hook.DecodeResult(raw)
		var unknown *hook.UnknownActionError
		if errors.As(err, &unknown) {
			e.log.note("%s: %v; treated as continue", spec.Name, err)
			l.badAction(spec, unknown.Action, "the unknown action")
			res, err = hook.Result{Action: contract.ActionContinue}, nil
		}
		if errors.Is(err, hook.ErrMalformedModify) {
			e.log.note("%s: %v; blocking the call", spec.Name, err)
			res, err = hook.Result{Action: contract.ActionBlock, Reason: "malformed modify result: " + err.Error()}, nil
		}
	}
	switch {
	case err != nil && errors.Is(err, context.Canceled) && ctx.Err() == context.Canceled:
		// The caller gave up — the user interrupted the turn, the
		// session ended —, not the extension: nothing to log or trace.
		return res, err
	case err != nil:
		return res, l.fault(spec, err, elapsed)
	case !spec.Allows(res.Action):
		e.log.note("%s: action %q is not allowed for this hook; treated as continue", spec.Name, res.Action)
		l.badAction(spec, string(res.Action), "the action")
		res = hook.Result{Action: contract.ActionContinue}
	case res.Action == contract.ActionReplace && !l.transform:
		e.log.note("%s: replace needs the %q permission; output left unchanged", spec.Name, contract.PermToolsTransformOutput)
		res = hook.Result{Action: contract.ActionContinue}
	case contract.ActionPermissions[res.Action] != "" && !l.perms.Has(contract.ActionPermissions[res.Action]):
		e.log.note("%s: %s needs the %q permission as well; treated as continue", spec.Name, res.Action, contract.ActionPermissions[res.Action])
		res = hook.Result{Action: contract.ActionContinue}
	case res.Action == contract.ActionContextPhase:
		// Advisory: synaps has no context phases to switch
		// (data.context_management.enabled is false), so the report
		// is kept where the extension's author looks, and the trace.
		e.log.note("%s: context phase %q reported (advisory; synaps has no context phases, so nothing changes)", spec.Name, res.Phase)
	}
	e.env.trace.hook(spec.Name, e, string(res.Action), elapsed, false, nil)
	return res, nil
}

// fault logs and traces a hook.handle that failed, and tells the user,
// once, of the first timeout.
func (l *link) fault(spec contract.HookSpec, err error, elapsed time.Duration) error {
	e := l.ext
	timeout := e.env.hookTimeout
	timedOut := errors.Is(err, context.DeadlineExceeded)
	if timedOut {
		err = fmt.Errorf("no answer to %s within %s", spec.Name, timeout)
	}
	e.log.note("%s: %v", spec.Name, err)
	e.env.trace.hook(spec.Name, e, "fault", elapsed, timedOut, err)
	if timedOut && e.firstTimeout() {
		// A hung guard costs the whole deadline on every call; the user
		// must hear of it, once, not only the log.
		then := "synaps went on without it"
		if spec.ToolFilter {
			then = "the call went on without it (failure_policy open)"
			if l.closed {
				then = "the call was blocked (failure_policy closed)"
			}
		}
		e.env.notify.say("extension %s did not answer %s within %s, so %s; every call it hangs on waits that long (said once; `synaps extensions logs %s` has more)",
			e.ID(), spec.Name, timeout, then, e.ID())
	}
	return err
}

// badAction tells the user, once per extension and action name, that an
// answer's action was treated as continue: the spec makes it continue,
// but a guard whose "blok" silently lets rm -rf run must not go unseen.
func (l *link) badAction(spec contract.HookSpec, action, what string) {
	e := l.ext
	if !e.firstBadAction(action) {
		return
	}
	then := "synaps went on as if it had answered continue"
	if spec.ToolFilter {
		then = "it was treated as continue and the call went on"
	}
	allowed := "continue"
	for _, a := range spec.Actions {
		allowed += ", " + string(a)
	}
	hint := ""
	if near := hook.NearestAction(action, spec); near != "" {
		hint = fmt.Sprintf("did you mean %q? ", near)
	}
	not := ""
	if what == "the action" {
		not = ", which " + spec.Name + " does not take"
	}
	e.env.notify.say("extension %s answered %s with %s %q%s, so %s; %s%s takes %s (said once; `synaps extensions logs %s` has more)",
		e.ID(), spec.Name, what, action, not, then, hint, spec.Name, allowed, e.ID())
}

// InputFault says how a fault was caused by the input rather than the
// extension — the event could not be sent, or the same request crashed
// the process and, retried, its restarted successor, while the extension
// has answered other requests before — or "" when it was not.
func (l *link) InputFault(err error) string {
	var un *unsendableError
	if errors.As(err, &un) {
		return "the extension could not judge this call: " + un.Error() + "; send a smaller or flatter input"
	}
	var crash *CrashError
	if errors.As(err, &crash) && crash.Retry != nil && l.ext.provenOnOtherInput() {
		return "the extension crashed on this input twice, also after a restart (" + crash.Retry.brief() + "), so it could not judge it; it is restarted for the next call"
	}
	return ""
}

func (l *link) Gone() string { return l.ext.goneForGood() }

// brokenLink is a fail-closed plugin whose manifest did not load: it
// answers every call it is held to with the load error (brokenguard.go).
type brokenLink struct {
	id  string
	err error
}

func (b *brokenLink) ID() string { return b.id }

func (b *brokenLink) Handle(context.Context, contract.HookSpec, *hook.Event, json.RawMessage) (hook.Result, error) {
	return hook.Result{}, b.err
}

func (b *brokenLink) InputFault(error) string { return "" }
func (b *brokenLink) Gone() string            { return "" }

// buildTable orders links by plugin id. A fail-closed extension that
// never initialised still guards the tool hooks its permissions cover, and
// a fail-closed plugin whose manifest did not load guards what it is held
// to (Plugin.BrokenGuard), so their failure blocks instead of vanishing.
// A hook whose id (hook.ExtensionHookID) is in off has no place: its
// extension still runs, for its tools and its other hooks.
func buildTable(exts []*Extension, plugins []*plugin.Plugin, off hook.Disabled) hook.Table {
	t := hook.Table{}
	for _, p := range plugins {
		if p.BrokenGuard == nil || p.Disabled || p.Untrusted {
			continue
		}
		byHook := map[string][]hook.Subscription{}
		for _, s := range p.BrokenGuard {
			byHook[s.Hook] = append(byHook[s.Hook], s)
		}
		for _, h := range []string{contract.HookBeforeToolCall, contract.HookAfterToolCall} {
			if len(byHook[h]) > 0 && !off.Has(hook.ExtensionHookID(p.ID, h)) {
				t[h] = append(t[h], &hook.Entry{Link: &brokenLink{id: p.ID, err: plugin.BrokenGuardFault(p.LoadErr())}, Subs: byHook[h], FailClosed: true})
			}
		}
	}
	for _, e := range exts {
		m := e.plugin.Manifest.Extension
		closed := m.FailurePolicy == "closed"
		starting := !e.started() // before tableSubs: a start may end between
		byHook, order := e.tableSubs()
		transform := m.Permissions.Has(contract.PermToolsTransformOutput)
		l := &link{ext: e, transform: transform, closed: closed, perms: m.Permissions, starting: starting}
		for _, h := range order {
			if off.Has(hook.ExtensionHookID(e.ID(), h)) {
				continue
			}
			t[h] = append(t[h], &hook.Entry{Link: l, Subs: byHook[h], FailClosed: closed, Transform: transform})
		}
	}
	t.Sort()
	return t
}

// tableSubs are e's places in the chain's table, by hook, in the order
// first met. An initialised extension holds what it subscribed to. One
// that never initialised holds its manifest's hooks, and, when fail-closed,
// the tool hooks its permissions cover (so its failure blocks). One still
// starting (Host.Begin) holds every hook its permissions cover: its link
// waits for the start and then answers only for what it subscribed to
// (link.Handle), so nothing it would have judged slips past meanwhile.
func (e *Extension) tableSubs() (map[string][]hook.Subscription, []string) {
	m := e.plugin.Manifest.Extension
	byHook := map[string][]hook.Subscription{}
	var order []string
	add := func(s hook.Subscription) {
		if _, ok := byHook[s.Hook]; !ok {
			order = append(order, s.Hook)
		}
		byHook[s.Hook] = append(byHook[s.Hook], s)
	}
	if e.planned && len(m.Hooks) > 0 {
		for _, s := range m.Hooks {
			add(s)
		}
		return byHook, order
	}
	if !e.started() {
		for _, spec := range contract.Hooks {
			if m.Permissions.PermitsHook(spec.Name) && (spec.MinProtocol <= 1 || m.ProtocolVersion >= spec.MinProtocol) {
				add(hook.Subscription{Hook: spec.Name})
			}
		}
		return byHook, order
	}
	_, subs := e.declared()
	if !e.initialized {
		subs = m.Hooks
	}
	for _, s := range subs {
		add(s)
	}
	if m.FailurePolicy == "closed" && !e.initialized {
		for _, h := range []string{contract.HookBeforeToolCall, contract.HookAfterToolCall} {
			if _, ok := byHook[h]; !ok && m.Permissions.PermitsHook(h) {
				add(hook.Subscription{Hook: h})
			}
		}
	}
	return byHook, order
}

// holds reports whether e, now started, has a place for ev in the chain
// (tableSubs): the check a link makes after waiting for a start, since
// the table it was called from was built before.
func (e *Extension) holds(spec contract.HookSpec, ev *hook.Event) bool {
	byHook, _ := e.tableSubs()
	for _, s := range byHook[spec.Name] {
		if !spec.ToolFilter || s.Matches(ev.ToolName, ev.ToolRuntimeName, ev.ToolInput) {
			return true
		}
	}
	return false
}
