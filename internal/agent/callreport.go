package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
)

// A tool call's per-call report: every link of the before_tool_call
// chain in order (hook.LinkReport), then the permission policy's rule or
// mode, then any required guard that did not judge, and the verdict. The
// agent keeps one for every call, in the call's session record
// (coverage), and `synaps hooks test` builds the same one without running
// the tool.

// Verdicts of a call report.
const (
	VerdictAllow = "allow" // the tool runs (or ran)
	VerdictBlock = "block" // a hook, rule, mode or required guard refused it
	VerdictAsk   = "ask"   // the user is asked (Asked says what came of it)
)

// CallReport is what decided one tool call.
type CallReport struct {
	ToolUseID string `json:"tool_use_id,omitempty"`
	Tool      string `json:"tool"`
	// Agent is the subagent whose call it is; "" for the main loop.
	Agent string `json:"agent,omitempty"`
	// Input is the input the chain was asked about (after the schema
	// gate); Final the input that runs, when a modify changed it.
	Input json.RawMessage   `json:"input,omitempty"`
	Final json.RawMessage   `json:"final_input,omitempty"`
	Links []hook.LinkReport `json:"links"`
	// Verdict is allow, block or ask; By the id of the link, rule or mode
	// that decided it ("" for an allow nobody objected to); Reason what
	// the model is told of a block.
	Verdict string `json:"verdict"`
	By      string `json:"by,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Asked, for an ask: "yes", "no", or "nobody" (no interactive user:
	// the call was refused), "" before anyone was asked (hooks test).
	Asked string `json:"asked,omitempty"`
	// Mode is the permission mode in force; Rule the rule that applied.
	Mode string `json:"mode,omitempty"`
	Rule string `json:"rule,omitempty"`
	// InputsDropped: the session kept this report without its inputs
	// and rewrites, which were too large (the call's input is in its
	// message).
	InputsDropped bool `json:"inputs_dropped,omitempty"`
}

// Ran reports whether the tool ran (or, in a probe, would run).
func (r *CallReport) Ran() bool {
	return r.Verdict == VerdictAllow || (r.Verdict == VerdictAsk && r.Asked == "yes")
}

// Coverage sorts the links into those that judged the call, those that
// matched but could not (and why), and those that did not match.
func (r *CallReport) Coverage() (judged []string, failed map[string]string, unmatched []string) {
	failed = map[string]string{}
	seen := map[string]bool{}
	for _, l := range r.Links {
		if seen[l.ID] {
			continue
		}
		seen[l.ID] = true
		switch l.State {
		case hook.StateJudged:
			judged = append(judged, l.ID)
		case hook.StateNotMatched:
			unmatched = append(unmatched, l.ID)
		case hook.StateFailed, hook.StateNotAsked:
			failed[l.ID] = l.Fault
			if l.State == hook.StateNotAsked {
				failed[l.ID] = "not asked: the chain had ended"
			}
		}
	}
	return judged, failed, unmatched
}

// block makes the report's verdict a block by id.
func (r *CallReport) block(id, reason string) {
	r.Verdict, r.By, r.Reason = VerdictBlock, id, reason
}

// policyLink adds the permission policy's say about the call: the rule
// that decided it, else the mode.
func (r *CallReport) policyLink(mode permission.Mode, d permission.Decision) {
	r.Mode = string(mode)
	lr := hook.LinkReport{State: hook.StateJudged, Action: verdictName(d.Verdict), Reason: d.Why}
	if d.Rule != nil {
		r.Rule = d.Rule.Text
		lr.ID = "rule:" + d.Rule.Text
	} else {
		lr.ID = "mode:" + string(mode)
	}
	r.Links = append(r.Links, lr)
}

func verdictName(v permission.Verdict) string {
	switch v {
	case permission.Deny:
		return "deny"
	case permission.Ask:
		return "ask"
	}
	return "allow"
}

// guardIDMatches reports whether a report link id is the required guard
// want: its full id ("ext:policy-guard/before_tool_call",
// "plugin:cc-guard/PreToolUse/0"), an id it begins ("ext:policy-guard",
// "plugin:cc-guard", "claude:project/PreToolUse"), the plugin's bare name
// ("policy-guard", "cc-guard"; "claude-project", "claude-user" for the
// settings files), or a Claude hooks file as ids named it before each
// hook had its own ("claude:cc-guard", "claude:claude-project/PreToolUse").
func guardIDMatches(id, want string) bool { return GuardNames(id, want) }

// GuardNames reports whether want, as required_guards takes it, names
// the hook of report id id (see guardIDMatches).
func GuardNames(id, want string) bool {
	if id == want || strings.HasPrefix(id, want+"/") {
		return true
	}
	owner := hook.OwnerOf(id)
	if owner == want {
		return true
	}
	old, ok := strings.CutPrefix(want, "claude:")
	if !ok || !(strings.HasPrefix(id, "plugin:") || strings.HasPrefix(id, "claude:")) {
		return false
	}
	name, event, _ := strings.Cut(old, "/")
	_, rest, _ := strings.Cut(id, "/")
	idEvent, _, _ := strings.Cut(rest, "/")
	return name == owner && (event == "" || event == idEvent)
}

// requiredMissing checks the report against the required guards: the
// first that did not judge the call, and why, or "" when each did (or did
// not match it). A guard not in the chain at all — not started, failed to
// load, disabled, skipped as untrusted — did not judge it. A guard made
// of several hooks (`plugin:cc-guard`, a plugin's Claude hooks) judged
// the call when each of its hooks that matched it did.
func requiredMissing(required []string, links []hook.LinkReport) (guard, why string) {
	for _, g := range required {
		judged, fault := map[string]bool{}, map[string]string{}
		var ids []string
		for _, l := range links {
			if !guardIDMatches(l.ID, g) {
				continue
			}
			if !slices.Contains(ids, l.ID) {
				ids = append(ids, l.ID)
			}
			switch l.State {
			case hook.StateJudged:
				judged[l.ID] = true
			case hook.StateFailed:
				fault[l.ID] = l.Fault
			}
		}
		if len(ids) == 0 {
			return g, "it is not in the hook chain (not started, failed to load, disabled, or skipped as untrusted)"
		}
		for _, id := range ids {
			if f, ok := fault[id]; ok && !judged[id] {
				if len(ids) > 1 { // say which of its hooks
					f = id + ": " + f
				}
				return g, "it could not judge it (" + f + ")"
			}
		}
	}
	return "", ""
}

// requiredRefusal is what the model is told of a call a required guard
// did not judge.
func requiredRefusal(guard, why string) string {
	return hook.Blocked("required guard "+guard, fmt.Sprintf("%s, and config required_guards says no tool call runs unjudged by it; start or fix the guard, or remove it from required_guards", why))
}

// maxKeptReport bounds a call report as the session keeps it. The call's
// input is in the session's message already; a report that would be
// larger keeps the links and the verdict without the inputs.
const maxKeptReport = 256 << 10

// keepReport writes the call's report into the session (coverage), for
// `synaps why` and `synaps replay`. A report that cannot be written is a
// notice: the call itself is not affected.
func (a *Agent) keepReport(r *CallReport) {
	if a.cfg.Session == nil {
		return
	}
	b, err := json.Marshal(kept(r))
	if err == nil {
		err = a.cfg.Session.AppendRecord(session.Record{Type: session.TypeCallReport, ToolUseID: r.ToolUseID, Report: b})
	}
	if err != nil {
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("could not keep the report of tool call %s in the session: %v", r.ToolUseID, err)})
	}
}

// kept is r as the session keeps it: a link's input only where it is not
// the call's (after a rewrite), and no inputs at all when they would make
// the record larger than maxKeptReport (InputsDropped says so).
func kept(r *CallReport) *CallReport {
	k := *r
	k.Links = append([]hook.LinkReport(nil), r.Links...)
	size := len(k.Input) + len(k.Final)
	for i := range k.Links {
		if bytes.Equal(k.Links[i].Input, r.Input) {
			k.Links[i].Input = nil
		}
		size += len(k.Links[i].Input) + len(k.Links[i].Rewrite)
	}
	if size > maxKeptReport {
		k.Input, k.Final, k.InputsDropped = nil, nil, true
		for i := range k.Links {
			k.Links[i].Input, k.Links[i].Rewrite = nil, nil
		}
	}
	return &k
}

// askedBy is the id of who asks about the call: the first link that asked
// to confirm, else the permission rule or mode.
func (r *CallReport) askedBy(confirms []hook.Confirm) string {
	if len(confirms) > 0 {
		return deciderID(r.Links, confirms[0].Extension, "confirm")
	}
	if r.Rule != "" {
		return "rule:" + r.Rule
	}
	return "mode:" + r.Mode
}

// SkippedLink is a hook configured here that is not in the chain (an
// untrusted project's Claude hooks): each call's report names it, as
// "not matched" when its own matchers pass the call by, else as could not
// judge, with Why. It is never asked.
type SkippedLink struct {
	Link hook.Link
	Why  string
}

// skippedLinks adds the report entries of the skipped links for a call.
func (r *CallReport) skippedLinks(skipped []SkippedLink, spec tool.Spec, input json.RawMessage) {
	if len(skipped) == 0 {
		return
	}
	hs, _ := contract.LookupHook(contract.HookBeforeToolCall)
	ev := &hook.Event{Kind: contract.HookBeforeToolCall, ToolName: spec.Name, ToolRuntimeName: spec.RuntimeName, ToolInput: input}
	for _, s := range skipped {
		if p, ok := s.Link.(hook.Parter); ok {
			// Hook by hook, by the ids `synaps hooks` lists.
			if parts := p.Parts(hs, ev); len(parts) > 0 {
				for _, pt := range parts {
					lr := hook.LinkReport{ID: pt.ID, State: hook.StateNotMatched}
					if pt.Selects {
						lr = hook.LinkReport{ID: pt.ID, State: hook.StateFailed, Fault: s.Why}
					}
					r.Links = append(r.Links, lr)
				}
				continue
			}
		}
		lr := hook.LinkReport{ID: hook.ReportID(s.Link, contract.HookBeforeToolCall), State: hook.StateFailed, Fault: s.Why}
		if sel, ok := s.Link.(hook.Selector); ok && !sel.Selects(hs, ev) {
			lr = hook.LinkReport{ID: lr.ID, State: hook.StateNotMatched}
		}
		r.Links = append(r.Links, lr)
	}
}
