package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/tool"
)

// applyPermissionUpdates makes the permission changes a hook gave with
// its allow on on_permission_request (Claude Code's PermissionRequest
// updatedPermissions), so that the like of the call is not asked about
// again. synaps applies addRules (to the allow, ask or deny list) and
// setMode, for the rest of the session. Each change is said to the user:
// a hook that widens permissions must not do it unseen.
//
// What it does not do, said too: write a rule to a settings file (the
// destinations localSettings, projectSettings, userSettings are kept
// for the session: synaps writes none of its files for a hook), switch
// to bypassPermissions (a hook must not turn every question off), and
// the other update types.
func (a *Agent) applyPermissionUpdates(updates []hook.PermissionUpdate) {
	p := a.cfg.Permissions
	if p == nil || len(updates) == 0 {
		return
	}
	note := func(format string, args ...any) {
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf(format, args...)})
	}
	for _, u := range updates {
		where := "for the rest of this session"
		if u.Destination != "" && u.Destination != "session" {
			where += fmt.Sprintf(" (it asked for %s: synaps writes no settings file for a hook)", u.Destination)
		}
		switch u.Type {
		case "addRules":
			kind := strings.ToLower(u.Behavior)
			if kind != "allow" && kind != "ask" && kind != "deny" {
				note("%s asked to add rules with behavior %q; not applied (allow, ask or deny)", u.By, u.Behavior)
				continue
			}
			var added []string
			for _, text := range u.Rules {
				r, err := permission.ParseRule(text)
				if err != nil {
					note("%s asked to add the %s rule %q; not applied: %v", u.By, kind, text, err)
					continue
				}
				r.Source = "hook " + u.By
				p.AddRule(kind, r)
				added = append(added, r.Text)
			}
			if len(added) > 0 {
				note("%s added the %s rule %s %s", u.By, kind, strings.Join(added, ", "), where)
			}
		case "setMode":
			m, err := permission.ParseMode(u.Mode)
			switch {
			case err != nil:
				note("%s asked for permission mode %q; not applied: %v", u.By, u.Mode, err)
			case m == permission.Bypass:
				note("%s asked for permission mode bypassPermissions; not applied: a hook does not turn every question off", u.By)
			default:
				p.SetMode(m)
				note("%s set the permission mode to %s %s", u.By, m, where)
			}
		default:
			note("%s asked for a permission update of type %q; not applied: synaps applies addRules and setMode", u.By, u.Type)
		}
	}
}

// rejudge judges an input that an on_permission_request link wrote
// (Claude Code's updatedInput) as a call's first input is judged, since
// nothing else has seen it: the schema gate, the before_tool_call
// guards, the deny rules and plan mode. It returns the input as the tool
// takes it, or the refusal; confirms are the guards' about it. A guard
// that rewrites it again refuses it: the hook's allow was for the input
// it wrote, and no guard would have judged a third one.
func (a *Agent) rejudge(ctx context.Context, spec tool.Spec, written json.RawMessage, rep *CallReport) (input json.RawMessage, refusal, by string, confirms []hook.Confirm) {
	refuse := func(by, msg string) (json.RawMessage, string, string, []hook.Confirm) {
		rep.block(by, msg)
		return nil, msg, by, nil
	}
	input, err := tool.Prepare(spec, written)
	if err != nil {
		return refuse("schema", "the input a permission hook wrote is not one "+spec.Name+" takes: "+err.Error())
	}
	rep.Final = input
	if a.cfg.Hooks != nil {
		d := a.cfg.Hooks.BeforeToolCall(ctx, spec, input, a.cfg.Session.ID, deferConfirms{})
		switch {
		case d.Stopped:
			a.stop.set(d.StoppedBy, d.StopReason)
			return refuse(d.StoppedBy, fmt.Sprintf("not run: %s stopped the turn: %s", d.StoppedBy, d.StopReason))
		case d.Blocked:
			return refuse(d.BlockedBy, d.Reason)
		case d.Input != nil && !jsonSame(d.Input, input):
			return refuse(d.ModifiedBy[0], fmt.Sprintf("not run: %s changed the input a permission hook wrote, so the hook's allow is not for the input that would run", strings.Join(d.ModifiedBy, ", ")))
		}
		confirms = d.Confirms
	}
	if p := a.cfg.Permissions; p != nil {
		call := permission.Call{Name: spec.Name, RuntimeName: spec.RuntimeName, Builtin: spec.Source == "builtin", ReadOnly: spec.ReadOnly, Input: input}
		if server, ok := strings.CutPrefix(spec.Source, "mcp:"); ok {
			call.MCPServer = server
		}
		if d := p.Decide(call); d.Verdict == permission.Deny {
			msg := fmt.Sprintf("Permission to run %s was denied by %s.", spec.Name, d.Why)
			if p.Mode() == permission.Plan && d.Rule == nil {
				msg = planRefusal(spec.Name, a.cfg.LeavePlan)
			}
			rep.block("permissions", msg)
			return nil, msg, "", nil // the rules' refusal: on_permission_denied hears it
		}
	}
	return input, "", "", confirms
}

// jsonSame reports whether two inputs are the same JSON value.
func jsonSame(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}
