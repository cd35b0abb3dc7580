package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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
	schema, err := modelSchema(rt.InputSchema)
	if err != nil {
		return nil, err
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
	r := toResult(res, s.m.opts.MaxOutput)
	if r.IsError {
		// A call that failed over the sandbox says so, with the setting
		// that allows it, where the model and the user read the error.
		if said := s.refusals(r.Output); len(said) > 0 {
			r.Output = strings.TrimRight(r.Output, "\n") + "\n" + strings.Join(said, "\n")
		}
	}
	return r, nil
}

// modelSchema is a tool's inputSchema as the model's API takes it: an
// object schema. MCP requires type "object", but servers send schemas
// without a type (an object's properties, say) — given type "object"
// here — or of another type, which the API refuses for the whole request
// and which no MCP call could satisfy (arguments are an object): such a
// tool is left out, with an error naming it.
func modelSchema(in any) (json.RawMessage, error) {
	if in == nil {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("left out: its inputSchema cannot be read: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("left out: its inputSchema %s is not a JSON object; the model's API takes object schemas only (MCP requires {\"type\":\"object\", …})", clip(string(raw), 80))
	}
	typ, ok := m["type"]
	if !ok {
		m["type"] = json.RawMessage(`"object"`)
		return json.Marshal(m)
	}
	if string(typ) != `"object"` {
		return nil, fmt.Errorf("left out: its inputSchema has type %s; the model's API takes object schemas only (MCP requires type \"object\": the tool's arguments are an object)", clip(string(typ), 40))
	}
	return raw, nil
}
