package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/permission"
)

// commandLines numbers the bash calls of commands' !`cmd` lines, for
// their tool_use_id.
var commandLines atomic.Int64

// expandCommand expands a Markdown command with its allowed-tools in
// force (as Claude Code requires Bash(…) in them for its !`cmd` lines).
func (a *App) expandCommand(ctx context.Context, c *command.Command, args string, allow []permission.Rule) string {
	if len(allow) > 0 && a.Permissions != nil {
		undo := a.Permissions.AllowForNow(allow)
		defer undo()
	}
	return c.Expand(ctx, args, command.Env{WorkDir: a.WorkDir, Bash: a.commandBash, DenyRead: a.mentionDenied})
}

// commandBash runs a command's !`cmd` line as the model's bash call runs:
// input gate, the before_tool_call chain (extensions and Claude hooks see
// a bash call, "Bash" to a Claude hook), the permission rules and mode,
// the bash tool, after_tool_call. What it returns goes in the line's
// place: the output, or the refusal, which names the rule or guard.
func (a *App) commandBash(ctx context.Context, line string) string {
	if a.Agent == nil {
		return fmt.Sprintf("(%s was not run: %v)", line, a.NoModel())
	}
	in, err := json.Marshal(map[string]string{"command": line})
	if err != nil {
		return fmt.Sprintf("(%s was not run: %v)", line, err)
	}
	res := a.Agent.CallTool(ctx, fmt.Sprintf("command-%d", commandLines.Add(1)), "bash", in)
	if !res.IsError && strings.TrimSpace(res.Output) == "(no output)" {
		return "" // said as Claude Code says it
	}
	return res.Output
}

// mentionDenied says why a command's @path may not be included: as a read
// of the file would be judged, a deny rule refuses it and an ask rule
// too (nobody was asked).
func (a *App) mentionDenied(path string) string {
	if a.Permissions == nil {
		return ""
	}
	in, err := json.Marshal(map[string]string{"path": path})
	if err != nil {
		return err.Error()
	}
	d := a.Permissions.Decide(permission.Call{Name: "read", RuntimeName: "read", Builtin: true, ReadOnly: true, Input: in})
	if d.Verdict == permission.Allow {
		return ""
	}
	return d.Why
}
