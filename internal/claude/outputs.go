package claude

import (
	"encoding/json"
	"strings"
)

// Outputs of Claude Code 2.1.332 that change what an event's answer
// means beyond output.go's reading of it.

// stopContext makes a Stop or SubagentStop hook's additionalContext what
// Claude Code makes of it: feedback the model gets while the turn goes
// on ("non-error feedback … the conversation continues so the model can
// act on it"). In synaps's chain that is on_message_complete's (or
// on_subagent_complete's) block, whose reason is the next message; with
// a block of its own, the context follows the reason.
func stopContext(e *Event, o Outcome) Outcome {
	if (e.Name != "Stop" && e.Name != "SubagentStop") || o.Context == "" {
		return o
	}
	if o.Decision == Block {
		o.Reason = joinText(o.Reason, o.Context)
	} else if o.Failed == "" {
		o.Decision, o.Reason = Block, o.Context
	}
	o.Context = ""
	return o
}

// sessionOutputs reads what a hook's JSON output says about the session
// (hookSpecificOutput): UserPromptSubmit's sessionTitle, SessionStart's
// reloadSkills.
func sessionOutputs(e *Event, o *Outcome, stdout string) {
	out := strings.TrimSpace(stdout)
	if (e.Name != "UserPromptSubmit" && e.Name != "SessionStart") || !strings.HasPrefix(out, "{") {
		return
	}
	var j struct {
		Specific struct {
			SessionTitle string `json:"sessionTitle"`
			ReloadSkills bool   `json:"reloadSkills"`
		} `json:"hookSpecificOutput"`
	}
	_ = json.NewDecoder(strings.NewReader(out)).Decode(&j)
	if e.Name == "UserPromptSubmit" {
		o.Title = strings.TrimSpace(j.Specific.SessionTitle)
	} else {
		o.ReloadSkills = j.Specific.ReloadSkills
	}
}

// retitle passes a hook's sessionTitle on.
func (l *Link) retitle(title string) {
	if l.Title != nil {
		l.Title(title)
		return
	}
	l.notify("asks to title the session " + title + "; this front end keeps its title")
}
