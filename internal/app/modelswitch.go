package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// switchModel is SetModel for a switch the user asked for (source
// "command": /model), between before_model_switch and
// after_model_switch (Claude Code's PreModelSwitch and PostModelSwitch):
// a block keeps the model, and says whose hook and why.
func (a *App) switchModel(ctx context.Context, name, source string) error {
	if a.Host == nil {
		return a.SetModel(name)
	}
	from := a.Model
	// context_tokens: the conversation as the last request carried it,
	// what the new model will read first.
	tokens := 0
	if a.Agent != nil {
		u := a.Agent.LastUsage()
		tokens = u.InputTokens + u.OutputTokens
	}
	data, _ := json.Marshal(map[string]any{"from_model": from, "to_model": name, "requested_model": name, "source": source, "context_tokens": tokens})
	sessionID := ""
	if a.Session != nil {
		sessionID = a.Session.ID
	}
	d := a.Host.RunHook(ctx, hook.Event{Kind: contract.HookBeforeModelSwitch, SessionID: sessionID, Data: data})
	if d.Blocked {
		return fmt.Errorf("%s blocked the switch: %s", d.BlockedBy, hook.BlockReason(d.Reason))
	}
	if err := a.SetModel(name); err != nil {
		return err
	}
	data, _ = json.Marshal(map[string]any{"from_model": from, "to_model": a.Model, "requested_model": name, "source": source, "context_tokens": tokens})
	d = a.Host.RunHook(ctx, hook.Event{Kind: contract.HookAfterModelSwitch, SessionID: sessionID, Data: data})
	if inject := d.InjectText(); inject != "" && a.Agent != nil {
		// PostModelSwitch's additionalContext: for the new model, with
		// the next message (no turn of its own).
		a.Agent.AddContext(inject)
	}
	return nil
}
