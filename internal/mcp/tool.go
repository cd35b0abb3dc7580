package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/tool"
)

// mcpTool is one tool of a server, as the registry holds it.
type mcpTool struct {
	s *server
	// remote is the tool's name on the server.
	remote string
	spec   tool.Spec
}

func newTool(s *server, name string, rt *sdk.Tool) (*mcpTool, error) {
	schema, err := json.Marshal(rt.InputSchema)
	if err != nil || rt.InputSchema == nil {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	desc := rt.Description
	if desc == "" {
		desc = fmt.Sprintf("Tool %s of the MCP server %s.", rt.Name, s.cfg.Name)
	}
	return &mcpTool{s: s, remote: rt.Name, spec: tool.Spec{
		RuntimeName: name, Description: desc, InputSchema: schema, Source: s.source(),
		// The server's readOnlyHint: the default permission mode runs
		// the tool, plan mode allows it, and it may run beside others.
		ReadOnly: rt.Annotations != nil && rt.Annotations.ReadOnlyHint,
	}}, nil
}

func (t *mcpTool) Spec() tool.Spec { return t.spec }

// Run calls the tool on its server. Whatever goes wrong on the server's
// side is a tool error for the model, never the end of the session.
func (t *mcpTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	s := t.s
	s.mu.Lock()
	cs, state, serr := s.session, s.state, s.err
	s.mu.Unlock()
	if cs == nil || state != StateReady {
		msg := fmt.Sprintf("MCP server %s is %s", s.cfg.Name, state)
		if serr != nil {
			msg += ": " + serr.Error()
		}
		return tool.Result{Output: msg, IsError: true}, nil
	}
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
	}
	timeout := s.callTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: t.remote, Arguments: input})
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return tool.Result{}, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded) || cctx.Err() == context.DeadlineExceeded:
			return tool.Result{Output: fmt.Sprintf("MCP server %s: tool %s did not answer within %s (set \"tool_timeout_sec\" on the server, or MCP_TOOL_TIMEOUT in milliseconds)", s.cfg.Name, t.remote, timeout), IsError: true}, nil
		}
		return tool.Result{Output: fmt.Sprintf("MCP server %s: %v", s.cfg.Name, err), IsError: true}, nil
	}
	return toResult(res, s.m.opts.MaxOutput), nil
}
