package claude

import (
	"context"
	"slices"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// A Claude hooks file is reported hook by hook (hook.Parter): each
// command has the id `synaps hooks` lists and `synaps hooks disable`
// takes, and a report says of each whether it judged the call, could not
// (and why) or was not matched, with its own answer — so `synaps why`,
// coverage and required_guards name the same hooks the listing does.

// Parts implements hook.Parter: the hooks of the Claude event ev fires
// as, each with whether its matcher and `if` select ev. None when a hook
// has no id (a link built without WithIDs is reported as one).
func (l *Link) Parts(spec contract.HookSpec, ev *hook.Event) []hook.Part {
	var events []string
	if e := l.event(spec.Name, ev); e != nil {
		events = []string{e.Name}
	} else {
		events = hookEvents(spec.Name)
	}
	var parts []hook.Part
	for _, name := range events {
		var e *Event
		if len(events) == 1 {
			e = l.event(spec.Name, ev)
		}
		for _, g := range l.Hooks.Events[name] {
			for _, h := range g.Handlers {
				if h.ID == "" {
					return nil
				}
				sel := e != nil && e.Selects(g.Matcher) && (h.If == "" || l.covers(h.If, ev))
				parts = append(parts, hook.Part{ID: h.ID, Selects: sel})
			}
		}
	}
	return parts
}

// reportParts says what each hook of event e did (hook.AddPart): those
// that ran their outcome; one identical to a hook that ran (run once, as
// Claude does) the same; a `once` hook already spent is not matched.
func (l *Link) reportParts(ctx context.Context, ev *hook.Event, e *Event, ran []Handler, outcomes []Outcome, took []time.Duration) {
	said := make([]hook.LinkReport, len(ran))
	for i, h := range ran {
		said[i] = partReport(ev, h, outcomes[i], took[i])
		hook.AddPart(ctx, said[i])
	}
	for _, g := range l.Hooks.Events[e.Name] {
		if !e.Selects(g.Matcher) {
			continue
		}
		for _, h := range g.Handlers {
			if h.ID == "" || (h.If != "" && !l.covers(h.If, ev)) || slices.ContainsFunc(ran, func(r Handler) bool { return r.ID == h.ID }) {
				continue
			}
			if i := slices.IndexFunc(ran, func(r Handler) bool { return r.key() == h.key() }); i >= 0 {
				lr := said[i]
				lr.ID = h.ID
				hook.AddPart(ctx, lr)
				continue
			}
			hook.AddPart(ctx, hook.LinkReport{ID: h.ID, State: hook.StateNotMatched})
		}
	}
}

// partReport is one hook's outcome as a report entry: its answer in the
// chain's words (block, confirm, modify, stop, allow, continue).
func partReport(ev *hook.Event, h Handler, o Outcome, took time.Duration) hook.LinkReport {
	lr := hook.LinkReport{ID: h.ID, State: hook.StateJudged, DurationNS: took.Nanoseconds()}
	switch {
	case h.Async && h.Type == "command":
		lr.Action, lr.Reason, lr.DurationNS = string(contract.ActionContinue), "runs in the background (async): it cannot decide", 0
	case o.Failed != "":
		lr.State, lr.Fault = hook.StateFailed, "failed: "+o.Failed
	case o.Stop:
		lr.Action, lr.Reason = string(contract.ActionStop), o.StopReason
	case o.Decision == Block:
		lr.Action, lr.Reason = string(contract.ActionBlock), o.Reason
	case o.Decision == Ask:
		lr.Action, lr.Reason = string(contract.ActionConfirm), o.Reason
		if len(o.UpdatedInput) > 0 {
			lr.Rewrite = FromClaudeInput(ev.ToolRuntimeName, o.UpdatedInput)
		}
	case len(o.UpdatedInput) > 0:
		lr.Action, lr.Rewrite = string(contract.ActionModify), FromClaudeInput(ev.ToolRuntimeName, o.UpdatedInput)
	case o.Decision == Allow:
		lr.Action, lr.Reason = "allow", o.Reason
	case o.UpdatedOutput != nil:
		lr.Action = string(contract.ActionReplace)
	default:
		lr.Action = string(contract.ActionContinue)
	}
	return lr
}
