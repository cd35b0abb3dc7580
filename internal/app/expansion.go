package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// promptExpansion fires on_prompt_expansion for a slash command expanded
// into cp.Prompt (Claude Code's UserPromptExpansion): a block keeps the
// prompt from the model — the error says whose hook and why — and what
// links inject is added to the prompt.
func (a *App) promptExpansion(ctx context.Context, c *command.Command, args string, cp *CommandPrompt) error {
	if a.Host == nil {
		return nil
	}
	if a.claude != nil {
		a.claude.newPrompt() // the prompt this expansion begins
		a.claude.keepPrompt()
	}
	// prompt is the line as typed (Claude Code's "prompt"); message
	// the expansion, what extensions judge.
	data, _ := json.Marshal(map[string]string{"expansion_type": "slash_command", "command_name": c.Qualified(), "command_args": args,
		"command_source": commandSource(c.Source), "prompt": cp.Line})
	sessionID := ""
	if a.Session != nil {
		sessionID = a.Session.ID
	}
	d := a.Host.RunHook(ctx, hook.Event{Kind: contract.HookOnPromptExpansion, Message: &cp.Prompt, SessionID: sessionID, Data: data})
	if d.Blocked {
		return fmt.Errorf("/%s was not sent: %s blocked it: %s", c.Qualified(), d.BlockedBy, hook.BlockReason(d.Reason))
	}
	if inject := d.InjectText(); inject != "" {
		cp.Prompt += "\n\n" + inject
	}
	return nil
}

// commandSource is where a command came from in Claude Code's words
// (its command_source): plugin, userSettings, projectSettings.
func commandSource(source string) string {
	switch source {
	case "user", "claude user":
		return "userSettings"
	case "project", "claude project":
		return "projectSettings"
	}
	return source
}
