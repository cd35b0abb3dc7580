package hook

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
)

// Link is one handler in a hook chain. An extension process is one
// implementation (internal/extension); a Claude command hook will be
// another. The chain decides who is asked, in which order, what an answer
// or a fault does to the call; the link only answers.
type Link interface {
	// ID names the link in decisions, notices and the intercept log
	// (a plugin id). Chains are ordered by it.
	ID() string
	// Handle asks the link about ev and returns its answer. params is ev
	// in the extension protocol's wire form (Event.Encode), cut to the
	// output limit of the link's Entry; a link with its own wire form
	// builds it from ev, which it must not change. ctx carries the chain's
	// deadline. An action the hook does not allow, or a replace from an
	// entry without Transform, is treated as continue; the link should
	// log why.
	Handle(ctx context.Context, spec contract.HookSpec, ev *Event, params json.RawMessage) (Result, error)
	// InputFault says how err, returned by Handle, was caused by the input
	// itself rather than by the link (it could not be sent, or it crashed
	// the link twice), or "" when it was not. Such a fault blocks
	// before_tool_call whatever the failure policy.
	InputFault(err error) string
	// Gone says why the link will not answer again this session, or ""
	// while it may. A fail-open link that is gone is announced on every
	// tool call it would have judged.
	Gone() string
}

// Starter is a Link that may still be starting when a hook reaches it
// (an extension started in the background, or spawned from a cached
// initialize answer). The chain calls AwaitStart before the entry's
// deadline begins: the wait is bounded by the start's own deadline and
// by ctx (the caller giving up), so a guard that is slow to start is
// waited for, as a session's start waits for it, rather than counted as
// a guard too slow to answer. Handle still reports a start that failed.
type Starter interface {
	AwaitStart(ctx context.Context, spec contract.HookSpec, ev *Event)
}

// Entry is one link's place in the chain of one hook.
type Entry struct {
	Link Link
	// Subs are the link's subscriptions to this hook; for a tool hook the
	// link is asked when any of them matches the call.
	Subs []Subscription
	// FailClosed: a fault of the link blocks the tool call (or withholds
	// its output) instead of being skipped (failure_policy "closed").
	FailClosed bool
	// Transform: the link may replace tool output (tools.transform_output).
	// It is sent up to contract.MaxReplaceOutput bytes of the output, not
	// the contract.MaxToolOutputHook prefix others see: a redactor working
	// on a prefix would cut the output short.
	Transform bool
	// Timeout replaces the chain's deadline for this link; zero keeps it.
	// A Claude command hook brings its own (seconds to minutes, as its
	// file says); an extension answers within the protocol's 5 s.
	Timeout time.Duration
	// rid is the link's id in per-call reports (ReportID), worked out
	// once by Set so that a report costs no string per link and call.
	rid string
}

// reportID is the entry's id in reports for hook.
func (e *Entry) reportID(hook string) string {
	if e.rid != "" {
		return e.rid
	}
	return ReportID(e.Link, hook)
}

// matches reports whether any subscription applies to the event.
func (e *Entry) matches(spec contract.HookSpec, ev *Event, input json.RawMessage) bool {
	if !spec.ToolFilter {
		return true
	}
	for _, sub := range e.Subs {
		if sub.Matches(ev.ToolName, ev.ToolRuntimeName, input) {
			return true
		}
	}
	return false
}

// Table maps hook names to their entries in chain order.
type Table map[string][]*Entry

// Sort orders every hook's entries by link id, keeping the given order
// among entries of one id.
func (t Table) Sort() {
	for _, entries := range t {
		slices.SortStableFunc(entries, func(a, b *Entry) int { return strings.Compare(a.Link.ID(), b.Link.ID()) })
	}
}

// Options configure a Chain. Zero values: no deadline, nothing recorded,
// nothing said.
type Options struct {
	// Timeout is the deadline of one link's answer (contract:
	// hook.handle, 5 s). Zero: the caller's context only.
	Timeout time.Duration
	// Record hears every block, modify, replace and declined confirm with
	// the link that caused it, for the intercept log. out is the new tool
	// output of a replace, else nil.
	Record func(ev *Event, linkID string, a contract.Action, out *string)
	// Notify receives what the user must see while the session runs: a
	// fail-open guard that is gone, on every call it would have judged.
	Notify func(format string, args ...any)
	// HideSessionID sends every event with session_id null (SynapsCLI's
	// privacy switch SYNAPS_HOOK_SESSION_ID=0). Links with a wire form of
	// their own (a Claude command hook) are not affected.
	HideSessionID bool
}

// Chain runs lifecycle events through the links subscribed to them. The
// table is swapped whole (Set) so a walk never takes a lock.
type Chain struct {
	opts  Options
	table atomic.Pointer[Table]
}

// NewChain returns a chain with an empty table.
func NewChain(o Options) *Chain {
	c := &Chain{opts: o}
	c.table.Store(&Table{})
	return c
}

// Set replaces the table; walks already running finish on the old one.
func (c *Chain) Set(t Table) {
	for kind, entries := range t {
		for _, e := range entries {
			if e.rid == "" { // an entry set before keeps its id: no write a walk could see
				e.rid = ReportID(e.Link, kind)
			}
		}
	}
	c.table.Store(&t)
}

func (c *Chain) record(ev *Event, id string, a contract.Action, out *string) {
	if c.opts.Record != nil {
		c.opts.Record(ev, id, a, out)
	}
}

func (c *Chain) notify(format string, args ...any) {
	if c.opts.Notify != nil {
		c.opts.Notify(format, args...)
	}
}

// encode is ev in the extension protocol's wire form (Event.Encode),
// without its session id when the chain hides it.
func (c *Chain) encode(ev *Event, limit int) json.RawMessage {
	if c.opts.HideSessionID && ev.SessionID != "" {
		hidden := *ev
		hidden.SessionID = ""
		return hidden.Encode(limit)
	}
	return ev.Encode(limit)
}

// MaxChainPasses bounds how often a before_tool_call chain is walked when
// modifies keep changing the input. Each pass asks only the handlers that
// have not yet judged the current input; an input still unjudged after the
// last pass (rewriters undoing each other) is blocked.
const MaxChainPasses = 3

// Run runs the chain for one event. The package doc lists the chain
// rules.
func (c *Chain) Run(ctx context.Context, ev Event) Decision {
	if !c.subscribed(ev.Kind) {
		return Decision{} // before ev is copied to the heap
	}
	walked := ev
	if walked.Subagent == nil {
		walked.Subagent = SubagentOf(ctx)
	}
	return c.dispatch(ctx, &walked)
}

// subscribed reports whether any link is in the chain of the hook. The
// entry points ask first, so an event nobody hears costs no allocation.
func (c *Chain) subscribed(kind string) bool {
	return len((*c.table.Load())[kind]) > 0
}

// Subscribed reports whether any link holds a place for the hook kind, so
// a caller can skip building what only a dispatch would read.
func (c *Chain) Subscribed(kind string) bool { return c.subscribed(kind) }

// BeforeToolCall runs before_tool_call for a tool call (toolName is the
// model-facing name, runtimeName the stable id) and settles confirm
// requests: if nothing blocked and some link asked to confirm, the user is
// asked once with every message; no Confirmer (no interactive user)
// blocks.
func (c *Chain) BeforeToolCall(ctx context.Context, toolName, runtimeName string, input json.RawMessage, sessionID string, cf Confirmer) Decision {
	if !c.subscribed(contract.HookBeforeToolCall) {
		return Decision{}
	}
	d := c.dispatch(ctx, &Event{Kind: contract.HookBeforeToolCall, ToolName: toolName, ToolRuntimeName: runtimeName, ToolInput: input, SessionID: sessionID, Subagent: SubagentOf(ctx), ToolUse: ToolUseOf(ctx)})
	if d.Blocked || len(d.Confirms) == 0 {
		return d
	}
	if cf == nil {
		d.Blocked, d.BlockedBy = true, d.Confirms[0].Extension
		d.Reason = Blocked(d.Confirms[0].Subject(), "confirmation required but there is no interactive user to ask ("+d.Confirms[0].Message+"); run interactively or pass --auto-approve-confirms")
		return d
	}
	if !cf.Confirm(ctx, toolName, d.Confirms) {
		d.Blocked, d.BlockedBy = true, d.Confirms[0].Extension
		d.Reason = Blocked(d.Confirms[0].Subject(), "the user declined: "+d.Confirms[0].Message)
	}
	if d.Blocked {
		c.record(&Event{Kind: contract.HookBeforeToolCall, ToolRuntimeName: runtimeName, SessionID: sessionID}, d.BlockedBy, contract.ActionConfirm, nil)
	}
	return d
}

// RecordDeclined notes in the intercept log that the user declined a
// link's confirm for a call, when the question was asked after the chain
// (the agent asks once, with its permission question; see
// BeforeToolCall, which records it when it asks itself).
func (c *Chain) RecordDeclined(runtimeName, sessionID, id string) {
	c.record(&Event{Kind: contract.HookBeforeToolCall, ToolRuntimeName: runtimeName, SessionID: sessionID}, id, contract.ActionConfirm, nil)
}

// AfterToolCall runs after_tool_call; Decision.Output is the replaced
// output when a link replaced it.
func (c *Chain) AfterToolCall(ctx context.Context, toolName, runtimeName string, input json.RawMessage, output string, isError bool, sessionID string) Decision {
	return c.AfterToolResult(ctx, toolName, runtimeName, input, output, isError, sessionID, nil)
}

// AfterToolResult is AfterToolCall with the tool's whole result (a
// tool.Result, opaque here) as Event.ToolDetail, for links that report
// more than its text.
func (c *Chain) AfterToolResult(ctx context.Context, toolName, runtimeName string, input json.RawMessage, output string, isError bool, sessionID string, detail any) Decision {
	if !c.subscribed(contract.HookAfterToolCall) {
		return Decision{}
	}
	return c.dispatch(ctx, &Event{Kind: contract.HookAfterToolCall, ToolName: toolName, ToolRuntimeName: runtimeName, ToolInput: input, ToolOutput: &output, ToolError: isError, SessionID: sessionID, Subagent: SubagentOf(ctx), ToolDetail: detail, ToolUse: ToolUseOf(ctx)})
}

// dispatch runs the chain for ev.
//
// The rule the tool hooks keep: the input that runs is an input every
// matching handler has judged. A modify changes the input, so after the
// pass in which it happened the handlers that saw an older input (those
// sorted before the rewriter) are asked again about the new one; a handler
// is not asked again about an input it already judged or wrote itself.
func (c *Chain) dispatch(ctx context.Context, ev *Event) Decision {
	spec, ok := contract.LookupHook(ev.Kind)
	if !ok {
		return Decision{}
	}
	entries := (*c.table.Load())[ev.Kind]
	if len(entries) == 0 {
		return Decision{}
	}
	if len(spec.Actions) == 0 {
		c.observe(ctx, spec, ev, entries)
		return Decision{}
	}
	w := &walk{c: c, spec: spec, ev: ev, entries: entries, input: ev.ToolInput}
	if ev.Kind == contract.HookAfterToolCall && !changesOutput(entries) {
		return w.together(ctx)
	}
	if w.rep = ReportOf(ctx); w.rep != nil {
		if w.rep.Links == nil {
			w.rep.Links = make([]LinkReport, 0, len(entries)+2)
		}
		w.repStart = len(w.rep.Links)
		defer w.unasked()
	}
	for pass := 1; ; pass++ {
		w.passNo = pass
		changed, ended := w.pass(ctx)
		if ended || !changed || w.judged == nil || !w.unjudged() {
			return w.d.withConfirms(w.confirms)
		}
		if pass == MaxChainPasses {
			d := &w.d
			last := d.ModifiedBy[len(d.ModifiedBy)-1]
			d.Blocked, d.BlockedBy = true, last
			d.Reason = BlockedMessage(last, fmt.Sprintf(
				"the input was still being modified after %d passes through the hook chain (modified by %s), so not every guard approved the input that would run; the extensions that rewrite this input undo each other",
				MaxChainPasses, strings.Join(dedupe(d.ModifiedBy), ", ")))
			c.record(ev, last, contract.ActionBlock, nil)
			return d.withConfirms(w.confirms)
		}
	}
}

// walk is the state of one dispatch of an event that can act.
type walk struct {
	c       *Chain
	spec    contract.HookSpec
	ev      *Event
	entries []*Entry
	d       Decision
	// input is the tool input as the chain has it now.
	input json.RawMessage
	// params and fullParams are the encoded event (fullParams for
	// Transform entries), rebuilt after a change; nil: not encoded yet.
	params, fullParams json.RawMessage
	// judged[i] is the input entries[i] last judged or wrote; nil: none
	// yet. confirms[i] is its pending confirm about that input. Both stay
	// nil for hooks without a tool filter.
	judged   []json.RawMessage
	confirms []*Confirm
	// rep, when the call's context asks for a report (WithReport),
	// hears every answer from repStart on; passNo is the pass walking.
	rep      *Report
	repStart int
	passNo   int
}

// pass asks, in order, every matching entry that has not judged the
// current input. changed: some modify changed the input; ended: the
// chain's verdict is final (a block).
func (w *walk) pass(ctx context.Context) (changed, ended bool) {
	for i, e := range w.entries {
		if !e.matches(w.spec, w.ev, w.input) {
			if w.confirms != nil {
				w.confirms[i] = nil // it has no say about this input
			}
			continue
		}
		if w.judged != nil && w.judged[i] != nil && sameJSON(w.judged[i], w.input) {
			continue
		}
		var res Result
		var err error
		if w.rep != nil {
			asked, start := w.input, time.Now()
			actx, parts := ctx, (*partsOf)(nil)
			if _, ok := e.Link.(Parter); ok {
				parts = &partsOf{}
				actx = context.WithValue(ctx, partsKey{}, parts)
			}
			res, err = w.ask(actx, e)
			w.note(ctx, e, asked, w.passNo, res, err, time.Since(start), parts)
		} else {
			res, err = w.ask(ctx, e)
		}
		if w.spec.ToolFilter && w.judged == nil {
			w.judged, w.confirms = make([]json.RawMessage, len(w.entries)), make([]*Confirm, len(w.entries))
		}
		if w.judged != nil {
			w.judged[i], w.confirms[i] = w.input, nil
		}
		if err != nil {
			if w.fault(e, err) {
				return changed, true
			}
			continue
		}
		c, end := w.apply(i, e, res)
		changed = changed || c
		if end {
			return changed, true
		}
	}
	return changed, false
}

// ask sends the event to one entry's link under the chain's deadline and
// treats an action the hook (or the entry) may not take as continue.
func (w *walk) ask(ctx context.Context, e *Entry) (Result, error) {
	p, limit := &w.params, contract.MaxToolOutputHook
	if e.Transform && w.ev.Kind == contract.HookAfterToolCall {
		p, limit = &w.fullParams, contract.MaxReplaceOutput
	}
	if *p == nil {
		*p = w.c.encode(w.ev, limit)
	}
	return w.c.answer(ctx, e, w.spec, w.ev, *p)
}

// answer asks one entry's link (handle) and treats an action the hook (or
// the entry) may not take as continue.
func (c *Chain) answer(ctx context.Context, e *Entry, spec contract.HookSpec, ev *Event, params json.RawMessage) (Result, error) {
	res, err := c.handle(ctx, e, spec, ev, params)
	if err == nil && (!spec.Allows(res.Action) || (res.Action == contract.ActionReplace && !e.Transform)) {
		res = Result{Action: contract.ActionContinue}
	}
	return res, err
}

// handle calls one entry's link under its deadline: the entry's own, else
// the chain's.
func (c *Chain) handle(ctx context.Context, e *Entry, spec contract.HookSpec, ev *Event, params json.RawMessage) (Result, error) {
	if s, ok := e.Link.(Starter); ok {
		s.AwaitStart(ctx, spec, ev)
	}
	if d := cmp.Or(e.Timeout, c.opts.Timeout); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return e.Link.Handle(ctx, spec, ev, params)
}

// fault applies the failure policy to a link that did not answer; it
// reports whether that ended the chain.
func (w *walk) fault(e *Entry, err error) (ended bool) {
	id, ev, d := e.Link.ID(), w.ev, &w.d
	if why := e.Link.InputFault(err); why != "" && ev.Kind == contract.HookBeforeToolCall && !e.FailClosed {
		// The guard could not judge this input because of the input
		// itself. Letting it run would make an input that breaks guards
		// a way past them, so even a fail-open guard blocks it (a
		// fail-closed one blocks below, as for any fault).
		d.Blocked, d.BlockedBy = true, id
		d.Reason = Blocked(Subject(e.Link), why+"; an input a guard cannot judge does not run, whatever its failure_policy")
		w.c.record(ev, id, contract.ActionBlock, nil)
		return true
	}
	if e.FailClosed && w.spec.ToolFilter {
		if ev.Kind == contract.HookAfterToolCall {
			// Withheld, and later handlers see what will be kept.
			out := fmt.Sprintf("[tool output withheld: %s failed (%v) and its failure_policy is closed]", Subject(e.Link), err)
			w.c.record(ev, id, contract.ActionReplace, &out)
			ev.ToolOutput, w.params, w.fullParams = &out, nil, nil
			d.Output, d.ReplacedBy = &out, append(d.ReplacedBy, id)
			return false
		}
		what := "the extension"
		if _, ok := e.Link.(Subjecter); ok {
			what = "the hook"
		}
		reason := fmt.Sprintf("%s failed (%v) and its failure_policy is closed", what, err)
		d.Blocked, d.BlockedBy, d.Reason = true, id, Blocked(Subject(e.Link), reason)
		w.c.record(ev, id, contract.ActionBlock, nil)
		return true
	}
	if w.spec.ToolFilter {
		if why := e.Link.Gone(); why != "" {
			// Fail-open and gone for the session: every call it would
			// have judged says so, or a guard could vanish with nobody
			// noticing.
			w.c.notify("extension %s is not running (failed: %s), so it did not check this %s call (failure_policy open)",
				id, why, ev.ToolName)
		}
	}
	return false
}

// apply folds one answer into the decision. changed: a modify changed the
// input; ended: a block ended the chain.
func (w *walk) apply(i int, e *Entry, res Result) (changed, ended bool) {
	id, ev, d := e.Link.ID(), w.ev, &w.d
	if res.Context != "" {
		d.Contexts = append(d.Contexts, Inject{id, res.Context})
	}
	if res.Grant {
		for _, u := range res.Permissions {
			u.By = id
			d.Permissions = append(d.Permissions, u)
		}
	}
	switch res.Action {
	case contract.ActionStop:
		d.Stopped, d.StoppedBy, d.StopReason = true, id, res.Reason
		w.c.record(ev, id, contract.ActionStop, nil)
		return false, true
	case contract.ActionBlock:
		d.Blocked, d.BlockedBy, d.Reason = true, id, Blocked(Subject(e.Link), res.Reason)
		w.c.record(ev, id, contract.ActionBlock, nil)
		return false, true
	case contract.ActionModify:
		changed = w.modify(i, id, res.Input)
		if res.Grant {
			d.AllowedBy = id // for the input it wrote
		}
	case contract.ActionReplace:
		out := *res.Output
		if len(out) > contract.MaxReplaceOutput {
			out = CutUTF8(out, contract.MaxReplaceOutput) + "…[replacement truncated]"
		}
		w.c.record(ev, id, contract.ActionReplace, &out)
		ev.ToolOutput = &out
		w.params, w.fullParams = nil, nil
		d.Output, d.ReplacedBy = &out, append(d.ReplacedBy, id)
	case contract.ActionConfirm:
		if res.Input != nil {
			// A confirm with a new input: the input changes as a modify
			// would, and the user is asked about it.
			changed = w.modify(i, id, res.Input)
		}
		if w.confirms != nil {
			w.confirms[i] = &Confirm{Extension: id, Message: res.Message, By: by(e.Link), Defer: res.Defer}
		} else {
			d.Confirms = append(d.Confirms, Confirm{Extension: id, Message: res.Message, By: by(e.Link), Defer: res.Defer})
		}
	case contract.ActionInject:
		d.Injects = append(d.Injects, Inject{id, res.Content})
	case contract.ActionContinue:
		if res.Grant && d.AllowedBy == "" {
			d.AllowedBy = id
		}
	}
	return changed, false
}

// modify makes input the call's input, as entry i (link id) asked, and
// reports whether it changed.
func (w *walk) modify(i int, id string, input json.RawMessage) bool {
	d := &w.d
	changed := !sameJSON(input, w.input)
	w.input = input
	w.ev.ToolInput = w.input
	w.params, w.fullParams = nil, nil // later handlers see the new input
	if w.judged != nil {
		w.judged[i] = w.input // it wrote it: no need to ask it again
	}
	d.Input, d.ModifiedBy = w.input, append(d.ModifiedBy, id)
	if changed {
		d.AllowedBy = "" // a grant was for the input before this one
	}
	w.c.record(w.ev, id, contract.ActionModify, nil)
	return changed
}

// unjudged reports whether some entry that matches the current input has
// not judged it yet.
func (w *walk) unjudged() bool {
	for i, e := range w.entries {
		if e.matches(w.spec, w.ev, w.input) && (w.judged[i] == nil || !sameJSON(w.judged[i], w.input)) {
			return true
		}
	}
	return false
}

// sameJSON reports whether two inputs are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(a, b) || jsonEqual(a, b)
}

// changesOutput reports whether any entry may change a tool's output on
// after_tool_call: one that may replace it (Transform), or one that
// withholds it when it fails (FailClosed). Later links must then see what
// will be kept, so the chain runs in turn.
func changesOutput(entries []*Entry) bool {
	for _, e := range entries {
		if e.Transform || e.FailClosed {
			return true
		}
	}
	return false
}

// together asks every matching entry at once, for an after_tool_call
// that no entry can change: the tool has run and its output is final, so
// no link's answer changes what a later one would be sent. Five loggers
// then cost one round trip, not five. The answers are applied in chain
// order, so contexts keep their order and the first stop is the one that
// counts; unlike a walk in turn, links after a stop are asked too — they
// are told of a call that did run.
func (w *walk) together(ctx context.Context) Decision {
	type answer struct {
		e   *Entry
		res Result
		err error
	}
	var asked []answer
	for _, e := range w.entries {
		if e.matches(w.spec, w.ev, w.input) {
			asked = append(asked, answer{e: e})
		}
	}
	if len(asked) > 1 {
		// The goroutines get what they read, not w, which would then
		// escape to the heap on every dispatch of every hook.
		c, spec, ev := w.c, w.spec, w.ev
		params := c.encode(ev, contract.MaxToolOutputHook)
		var wg sync.WaitGroup
		for i := range asked {
			wg.Add(1)
			go func() {
				defer wg.Done()
				asked[i].res, asked[i].err = c.answer(ctx, asked[i].e, spec, ev, params)
			}()
		}
		wg.Wait()
	} else {
		for i := range asked {
			asked[i].res, asked[i].err = w.ask(ctx, asked[i].e)
		}
	}
	for i, a := range asked {
		if a.err != nil {
			if w.fault(a.e, a.err) {
				break
			}
			continue
		}
		if _, end := w.apply(i, a.e, a.res); end {
			break
		}
	}
	return w.d
}

// observe runs the links of a hook that cannot change anything
// concurrently (on_session_end must not wait on each extension in turn)
// and waits for them all.
func (c *Chain) observe(ctx context.Context, spec contract.HookSpec, ev *Event, entries []*Entry) {
	params := c.encode(ev, contract.MaxToolOutputHook)
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.handle(ctx, e, spec, ev, params)
		}()
	}
	wg.Wait()
}
