package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Question is what the agent asks the user before a tool call: every
// extension's confirm message and, when the permission mode or a rule
// asks, the permission's own (from "permissions").
type Question struct {
	// Tool is the model-facing tool name.
	Tool string
	// Input is the input that will run.
	Input    json.RawMessage
	Messages []hook.Confirm
	// Always is the allow rule an "always" answer saves ("" when always is
	// not on offer: an extension asked too, and no rule answers it).
	Always string
	// Agent names the subagent whose call it is ("agent explore
	// (a1b2…)"); "" for the main loop's.
	Agent string
	// Diff is what the call would change, for a tool that can tell
	// (tool.Previewer: built-in edit and write), from Input: the user
	// approves the change itself. nil otherwise.
	Diff *tool.Diff
}

// Answer is the user's answer to a Question.
type Answer int

// Answers.
const (
	AnswerNo     Answer = iota // do not run it
	AnswerYes                  // run it this once
	AnswerAlways               // run it, and save Question.Always as an allow rule
)

// Asker is a Confirmer that can also offer "always". The TUI and the
// terminal chat implement it; a plain Confirmer gets yes or no.
type Asker interface {
	Ask(ctx context.Context, q Question) Answer
}

// PermissionsSource is the Confirm.Extension of the permission's own
// message in a Question.
const PermissionsSource = "permissions"

// declineRecorder is the part of Hooks that logs a declined confirm in
// the intercept log (*extension.Host has it).
type declineRecorder interface {
	RecordDeclined(spec tool.Spec, sessionID, id string)
}

// deferConfirms answers the host's confirm with yes and leaves the
// question to the agent, which asks once, after the permission verdict on
// the input that will really run (after every modify).
type deferConfirms struct{}

func (deferConfirms) Confirm(context.Context, string, []hook.Confirm) bool { return true }

// permit settles whether a call the chain let through may run: the
// permission policy's verdict on input and the extensions' confirms,
// asked together, once. It returns the refusal the model gets ("" to
// run) and the extension that refused, if one did.
// grantedBy, when set, is a hook that answered the permission question
// for this input (a Claude hook's permissionDecision allow): the mode's
// ask becomes a run, while deny rules and plan mode still refuse.
// rep hears the policy's verdict and the outcome; probe (hooks test)
// asks nobody: a call that would be asked about ends there, with rep's
// verdict ask.
// final, when set, is the input that runs instead of input: one an
// on_permission_request link wrote (Claude's updatedInput).
func (a *Agent) permit(ctx context.Context, spec tool.Spec, input json.RawMessage, confirms []hook.Confirm, c hook.Confirmer, grantedBy string, rep *CallReport, probe bool) (refusal, by string, final json.RawMessage) {
	refusal, by, final = a.settle(ctx, spec, input, confirms, c, grantedBy, rep, probe)
	if final != nil {
		input = final
	}
	if refusal != "" && by == "" && !probe {
		// Refused by the rules, the mode or the user, not a hook.
		if more := a.permissionDenied(ctx, spec, input, refusal); more != "" {
			refusal += "\n\n" + more
		}
	}
	return refusal, by, final
}

// settle is permit without on_permission_denied.
func (a *Agent) settle(ctx context.Context, spec tool.Spec, input json.RawMessage, confirms []hook.Confirm, c hook.Confirmer, grantedBy string, rep *CallReport, probe bool) (refusal, by string, final json.RawMessage) {
	verdict, why := permission.Allow, ""
	var call permission.Call
	p := a.cfg.Permissions
	if p != nil {
		call = permission.Call{Name: spec.Name, RuntimeName: spec.RuntimeName, Builtin: spec.Source == "builtin", ReadOnly: spec.ReadOnly, Input: input}
		if server, ok := strings.CutPrefix(spec.Source, "mcp:"); ok {
			call.MCPServer = server
		}
		d := p.Decide(call)
		verdict, why = d.Verdict, d.Why
		rep.policyLink(p.Mode(), d)
		if verdict == permission.Deny {
			if p.Mode() == permission.Plan && d.Rule == nil {
				refusal = planRefusal(spec.Name, a.cfg.LeavePlan)
			} else {
				refusal = fmt.Sprintf("Permission to run %s was denied by %s.", spec.Name, why)
			}
			rep.block(rep.Links[len(rep.Links)-1].ID, refusal)
			return refusal, "", final
		}
	}
	if len(confirms) > 0 {
		switch {
		case a.cfg.ApproveConfirms:
			confirms = nil
		case p != nil && p.Mode() == permission.Bypass:
			// As Claude Code turns a hook's ask into a run under
			// bypassPermissions; said, so that it is never silent.
			ids := make([]string, len(confirms))
			for i, m := range confirms {
				ids[i] = m.Extension
			}
			a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("bypassPermissions: %s runs without the confirmation %s asked for (%s)", spec.Name, strings.Join(ids, ", "), confirms[0].Message)})
			confirms = nil
		}
	}
	granted := verdict == permission.Ask && grantedBy != ""
	if granted {
		verdict = permission.Allow
	}
	ask := verdict == permission.Ask
	if !ask && len(confirms) == 0 {
		switch {
		case granted:
			rep.By = deciderID(rep.Links, grantedBy, contract.ActionContinue)
		case len(rep.Links) > 0 && p != nil:
			rep.By = rep.Links[len(rep.Links)-1].ID // the rule or mode
		}
		return "", "", final
	}
	if ask {
		// Claude Code's PermissionRequest: a hook may answer the
		// question before the user sees it (or -p refuses the call).
		refusal, by, granted, written := a.permissionRequest(ctx, spec, input, why)
		if refusal != "" {
			rep.block(by, refusal)
			return refusal, by, final
		}
		if written != nil {
			// The call runs (or is asked about) with the input the hook
			// wrote, judged again first.
			in, refusal, by, more := a.rejudge(ctx, spec, written, rep)
			if refusal != "" {
				return refusal, by, written
			}
			input, final, confirms = in, in, more
			call.Input = in
		}
		if granted {
			ask = false
			if len(confirms) == 0 {
				return "", "", final
			}
		}
	}
	rep.Verdict, rep.By = VerdictAsk, rep.askedBy(confirms)
	if probe {
		return "not run: it would be asked about", "", final
	}
	if c == nil {
		rep.Asked = "nobody"
		if len(confirms) > 0 {
			return hook.Blocked(confirms[0].Subject(), "confirmation required but there is no interactive user to ask ("+confirms[0].Message+"); run interactively or pass --auto-approve-confirms"), confirms[0].Extension, final
		}
		return headlessRefusal(spec, why, p.Suggest(call)), "", final
	}
	q := Question{Tool: spec.Name, Input: input, Messages: confirms}
	if t, _, ok := a.lookupTool(spec.Name); ok {
		if pv, ok := t.(tool.Previewer); ok {
			q.Diff = pv.Preview(ctx, input)
		}
	}
	if ask {
		q.Messages = append(append([]hook.Confirm(nil), confirms...), hook.Confirm{Extension: PermissionsSource, Message: why})
		if len(confirms) == 0 {
			q.Always = p.Suggest(call)
		}
	}
	// Claude Code's Notification: a notifier tells the user synaps waits.
	a.Notify(ctx, "permission_prompt", "synaps needs your permission to use "+spec.Name)
	// One question at a time, whichever call asks.
	a.ask.Lock()
	answer := askUser(ctx, c, q)
	a.ask.Unlock()
	rep.Asked = "yes"
	switch answer {
	case AnswerNo:
		rep.Asked = "no"
		if len(confirms) > 0 {
			if r, ok := a.cfg.Hooks.(declineRecorder); ok {
				r.RecordDeclined(spec, a.cfg.Session.ID, confirms[0].Extension)
			}
			return hook.Blocked(confirms[0].Subject(), "the user declined: "+confirms[0].Message), confirms[0].Extension, final
		}
		return fmt.Sprintf("The user declined to run %s (%s).", spec.Name, why), "", final
	case AnswerAlways:
		a.saveRule(q.Always)
	}
	return "", "", final
}

// askUser asks c; an Asker may answer always, a plain Confirmer yes or no.
func askUser(ctx context.Context, c hook.Confirmer, q Question) Answer {
	if asker, ok := c.(Asker); ok {
		ans := asker.Ask(ctx, q)
		if ans == AnswerAlways && q.Always == "" {
			ans = AnswerYes
		}
		return ans
	}
	if c.Confirm(ctx, q.Tool, q.Messages) {
		return AnswerYes
	}
	return AnswerNo
}

// saveRule adds an "always" answer's rule to the policy for the rest of
// the session, and to Config.SaveRule's file for later ones.
func (a *Agent) saveRule(text string) {
	r, err := permission.ParseRule(text)
	if err != nil {
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("cannot save %q as a rule: %v", text, err)})
		return
	}
	r.Source = "answered always"
	a.cfg.Permissions.AddAllow(r)
	if a.cfg.SaveRule == nil {
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("allowed %s for the rest of this session", text)})
		return
	}
	where, err := a.cfg.SaveRule(text)
	if err != nil {
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("allowed %s for this session, but could not save it: %v", text, err)})
		return
	}
	a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("allowed %s from now on (saved in %s)", text, where)})
}

// LeavePlanHeadless is how a run started with its flags leaves plan mode:
// no key switches the mode of -p, rpc or server while they run.
const LeavePlanHeadless = "run again with --permission-mode default (or acceptEdits), or change permission_mode in the config"

// planRefusal is what the model gets for a call plan mode refuses; leave
// says how this front-end's user leaves plan mode ("": headless).
func planRefusal(tool, leave string) string {
	if leave == "" {
		leave = LeavePlanHeadless
	}
	return fmt.Sprintf("%s was not run: synaps is in plan mode, which is read-only. Say what you would do instead; the user leaves plan mode (%s) to have it done.", tool, leave)
}

// headlessRefusal tells the model, and the user reading the run, that a
// call needs a permission nobody can give, and which flag or rule gives
// it.
func headlessRefusal(spec tool.Spec, why, rule string) string {
	mode := permission.Bypass
	if spec.Source == "builtin" && (spec.Name == "write" || spec.Name == "edit") {
		mode = permission.AcceptEdits
	}
	return fmt.Sprintf("%s was not run: it needs permission (%s) and there is no interactive user to ask. "+
		"Allow it with --allowedTools '%s', or with `permissions.allow = %s` in the config ($SYNAPS_BASE_DIR/config, ~/.synaps-cli/config by default, or .synaps/config in a trusted project), or run with --permission-mode %s.",
		spec.Name, why, rule, rule, mode)
}

// Notify fires on_notification: synaps wants the user's attention (kind
// "permission_prompt" before a question, "idle_prompt" when the terminal
// UI waits for input). It does not wait for the hooks: the question is
// asked meanwhile, and their answers change nothing.
func (a *Agent) Notify(ctx context.Context, kind, message string) {
	if a.cfg.Hooks == nil {
		return
	}
	data, _ := json.Marshal(map[string]string{"notification_type": kind, "title": "synaps"})
	ev := hook.Event{Kind: contract.HookOnNotification, SessionID: a.cfg.Session.ID, Message: &message, Data: data}
	go a.cfg.Hooks.RunHook(context.WithoutCancel(ctx), ev)
}
