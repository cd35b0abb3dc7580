package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/tool"
)

// exitPlanTool is Claude Code's ExitPlanMode: in plan mode the model ends
// its plan by calling it; the user sees the plan and approves it (plan
// mode ends: acceptEdits or default, as the user picks) or keeps
// planning (plan mode stays, with what the user typed for the model).
// Without an interactive user it answers by the permission mode: plan
// mode stays (nobody can approve), any other mode has nothing to leave.
type exitPlanTool struct{}

// planOptions are the answers to the plan question, in Claude Code's
// order; planModes the mode each approval switches to.
var (
	planOptions = []ChoiceOption{
		{Label: "Yes, and auto-accept edits", Description: "leave plan mode for acceptEdits"},
		{Label: "Yes, and manually approve edits", Description: "leave plan mode for default"},
		{Label: "No, keep planning", Description: "stay in plan mode; type what to change instead"},
	}
	planModes = []permission.Mode{permission.AcceptEdits, permission.Default}
)

func (exitPlanTool) Spec() tool.Spec {
	return tool.Spec{
		// Read-only: it changes no file, and plan mode must let it run.
		RuntimeName: ExitPlanToolName, Source: "builtin", ReadOnly: true,
		Description: "Use in plan mode when your plan for a coding task is complete: give the whole plan (Markdown); " +
			"the user reads it and approves it, which leaves plan mode so you can carry it out, or asks you to keep " +
			"planning. Not for research or questions (use ask_user_question to settle a choice before the plan).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"plan":{"type":"string",` +
			`"description":"The plan to approve, concise Markdown"}},"required":["plan"]}`),
	}
}

func (exitPlanTool) Run(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Result{}, errNotInLoop
}

func (exitPlanTool) runWithUser(ctx context.Context, a *Agent, ch Chooser, input json.RawMessage) tool.Result {
	var in struct {
		Plan string `json:"plan"`
	}
	if err := json.Unmarshal(input, &in); err != nil || strings.TrimSpace(in.Plan) == "" {
		return tool.Result{Output: `exit_plan_mode: give the plan as {"plan": "..."} (Markdown, not empty)`, IsError: true}
	}
	p := a.cfg.Permissions
	if p == nil || p.Mode() != permission.Plan {
		mode := "no permission policy"
		if p != nil {
			mode = string(p.Mode())
		}
		return tool.Result{Output: fmt.Sprintf("synaps is not in plan mode (mode: %s): there is no plan mode to leave; go on with the task.", mode), IsError: true}
	}
	if hook.SubagentOf(ctx) != nil {
		return tool.Result{Output: "exit_plan_mode: only the main agent can leave plan mode; return the plan as your answer.", IsError: true}
	}
	if ch == nil {
		return tool.Result{Output: "The plan was not approved: synaps runs without an interactive user here, so nobody can approve it and synaps stays in plan mode. " +
			"End your answer with the plan; the user runs again with --permission-mode default (or acceptEdits) to have it carried out.", IsError: true}
	}
	ans := ch.Choose(ctx, Choice{Tool: ExitPlanToolName, Header: "Plan", Body: in.Plan, Question: "Would you like to proceed?", Options: planOptions})
	if ans.Dismissed || ctx.Err() != nil {
		return tool.Result{Output: "The user did not approve the plan and stopped; synaps stays in plan mode. Wait for their next message.", IsError: true}
	}
	if len(ans.Picked) == 1 && ans.Picked[0] < len(planModes) && strings.TrimSpace(ans.Other) == "" {
		m := planModes[ans.Picked[0]]
		p.SetMode(m)
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("plan approved: permission mode %s (%s)", m, m.Describe())})
		return tool.Result{Output: fmt.Sprintf("The user approved your plan; synaps left plan mode for %s (%s). Carry out the plan now.", m, m.Describe())}
	}
	out := "The user wants you to keep planning; synaps stays in plan mode. Revise the plan and call exit_plan_mode again when it is ready."
	if s := strings.TrimSpace(ans.Other); s != "" {
		out = fmt.Sprintf("The user wants you to keep planning, and said: %q. synaps stays in plan mode; revise the plan and call exit_plan_mode again.", s)
	}
	return tool.Result{Output: out, IsError: true}
}
