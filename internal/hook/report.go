package hook

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
)

// A per-call report says, for one tool call, what every link of the
// before_tool_call chain did: asked or not, answered or not (and why
// not), what it answered and how long it took. `synaps hooks test`
// prints it, the session keeps it with the call (coverage), `synaps why`
// reads it back and required_guards is checked against it.
//
// It costs nothing unless asked for: the chain looks for a *Report in
// the call's context (WithReport) and, finding none, walks as before.

// Link states in a report: what a link did about the call.
const (
	// StateJudged: the link was asked and answered.
	StateJudged = "judged"
	// StateNotMatched: the link's subscriptions do not cover this call.
	StateNotMatched = "not matched"
	// StateFailed: the link was asked and could not answer (it is dead,
	// it timed out, it crashed); Fault says how.
	StateFailed = "could not judge"
	// StateNotAsked: the chain ended (a block) before reaching it.
	StateNotAsked = "not asked"
)

// LinkReport is what one link did about one call, in chain order. A link
// asked again after a modify (a later pass) has one entry per answer.
type LinkReport struct {
	// ID is the link's stable id: "ext:<plugin>/<hook>" for an
	// extension, "claude:<file>/<Event>" for Claude command hooks,
	// "rule:<rule>" and "mode:<mode>" for the permission policy,
	// "required:<guard>" for a required guard that did not judge.
	ID    string `json:"id"`
	State string `json:"state"`
	// Fault says why a link that matched could not judge ("dead: …",
	// "timed out: …", "failed: …", or why it is not in the chain).
	Fault string `json:"fault,omitempty"`
	// Action is its answer (continue, block, modify, confirm, …; for the
	// permission policy allow, ask or deny).
	Action string `json:"action,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Input is the input it was asked about; Rewrite the input it
	// answered with (modify, or confirm with a new input).
	Input   json.RawMessage `json:"input,omitempty"`
	Rewrite json.RawMessage `json:"rewrite,omitempty"`
	// Pass is the walk it answered in (1, or later after a modify).
	Pass       int   `json:"pass,omitempty"`
	DurationNS int64 `json:"duration_ns,omitempty"`
}

// Report collects the link reports of one call's chain. Only the walk of
// that call writes it (a chain walk is sequential), so it has no lock.
type Report struct {
	Links []LinkReport
}

type reportKey struct{}

// WithReport asks the chain to fill r for the before_tool_call walks run
// under ctx.
func WithReport(ctx context.Context, r *Report) context.Context {
	return context.WithValue(ctx, reportKey{}, r)
}

// ReportOf is the report ctx asks for, or nil.
func ReportOf(ctx context.Context) *Report {
	r, _ := ctx.Value(reportKey{}).(*Report)
	return r
}

// ReportIDer is a Link with an id of its own in reports (a Claude
// command-hook file: "claude:<file>/<Event>"). Others are
// "ext:<id>/<hook>".
type ReportIDer interface {
	ReportID(hook string) string
}

// Selector is a Link that subscribes to every tool and applies its own
// matchers (a Claude command-hook file): Selects says whether it has
// anything to run for ev, so a report can say "not matched" where its
// continue only meant that.
type Selector interface {
	Selects(spec contract.HookSpec, ev *Event) bool
}

// ReportID is a link's id in reports for hook.
func ReportID(l Link, hook string) string {
	if r, ok := l.(ReportIDer); ok {
		return r.ReportID(hook)
	}
	return "ext:" + l.ID() + "/" + hook
}

// faultOf says why a link could not judge: dead, timed out, or how it
// failed.
func faultOf(ctx context.Context, l Link, err error, deadline, took time.Duration) string {
	if why := l.Gone(); why != "" {
		return "dead: " + why
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || (deadline > 0 && took >= deadline) {
		return "timed out: " + err.Error()
	}
	return "failed: " + err.Error()
}

// note adds what entry e did (res, err) about input to the walk's report.
func (w *walk) note(ctx context.Context, e *Entry, input json.RawMessage, pass int, res Result, err error, took time.Duration, parts *partsOf) {
	lr := LinkReport{ID: e.reportID(w.ev.Kind), State: StateJudged, Input: input, Pass: pass, DurationNS: took.Nanoseconds()}
	if err != nil {
		lr.State, lr.Fault = StateFailed, faultOf(ctx, e.Link, err, cmp.Or(e.Timeout, w.c.opts.Timeout), took)
		if e.FailClosed || e.Link.InputFault(err) != "" {
			lr.Action = string(contract.ActionBlock)
		}
	} else if sel, ok := e.Link.(Selector); ok && res.Action == contract.ActionContinue && !sel.Selects(w.spec, w.ev) {
		lr = LinkReport{ID: lr.ID, State: StateNotMatched}
	} else {
		lr.Action, lr.Reason = string(res.Action), res.Reason
		if res.Action == contract.ActionConfirm {
			lr.Reason = res.Message
		}
		if res.Input != nil && (res.Action == contract.ActionModify || res.Action == contract.ActionConfirm) {
			lr.Rewrite = res.Input
		}
	}
	if pr, ok := e.Link.(Parter); ok && parts != nil {
		if ps := pr.Parts(w.spec, w.ev); len(ps) > 0 {
			w.noteParts(ps, parts.take(), lr, e.FailClosed)
			return
		}
	}
	w.rep.Links = append(w.rep.Links, lr)
}

// unasked adds to the report the entries a walk ended before: those that
// did not match, and those the chain never reached.
func (w *walk) unasked() {
	for _, e := range w.entries {
		matches := e.matches(w.spec, w.ev, w.input)
		var parts []Part
		if pr, ok := e.Link.(Parter); ok {
			parts = pr.Parts(w.spec, w.ev)
		}
		if len(parts) == 0 {
			parts = []Part{{ID: e.reportID(w.ev.Kind), Selects: true}}
		}
		for _, pt := range parts {
			if w.seen(pt.ID) {
				continue
			}
			state := StateNotAsked
			if !matches || !pt.Selects {
				state = StateNotMatched
			}
			w.rep.Links = append(w.rep.Links, LinkReport{ID: pt.ID, State: state})
		}
	}
}

// seen reports whether this walk's report has an entry for id.
func (w *walk) seen(id string) bool {
	for i := w.repStart; i < len(w.rep.Links); i++ {
		if w.rep.Links[i].ID == id {
			return true
		}
	}
	return false
}
