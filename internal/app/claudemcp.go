package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/mcp"
)

// callHookTool runs an MCP tool for a Claude mcp_tool hook
// (claude.ToolCaller): the session's MCP servers are waited for (they
// start in the background), then the tool is called by its
// mcp__<server>__<tool> name as the model would call it, but with no
// permission question: the hook's author chose the call, as a command
// hook's chooses its command.
func (a *App) callHookTool(ctx context.Context, server, toolName string, args json.RawMessage) (string, bool, error) {
	if a.MCP == nil {
		return "", false, fmt.Errorf("no MCP server is configured (the hook names %q; synaps mcp list shows the servers)", server)
	}
	if err := a.MCP.Wait(ctx); err != nil {
		return "", false, err
	}
	name := mcp.ToolName(server, toolName)
	t, _, ok := a.Tools.Lookup(name)
	if !ok {
		var state []string
		for _, s := range a.MCP.Statuses() {
			if s.Name == server {
				st := string(s.State)
				if s.Err != "" {
					st += ": " + s.Err
				}
				state = append(state, st)
			}
		}
		if len(state) == 0 {
			return "", false, fmt.Errorf("no MCP server %q is configured (synaps mcp list shows the servers)", server)
		}
		return "", false, fmt.Errorf("MCP server %q (%s) has no tool %q", server, strings.Join(state, ", "), toolName)
	}
	res, err := t.Run(ctx, args)
	if err != nil {
		return "", false, err
	}
	return res.Output, res.IsError, nil
}
