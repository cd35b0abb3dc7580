package acp

import (
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/synaps-cli/synaps/internal/mcp"
)

// mcpServers turns the MCP servers an editor passes with session/new or
// session/load into synaps's: they start with the session beside the
// configured ones (a same-named one is replaced), their tools named
// mcp__<server>__<tool> and guarded by the same hooks. The editor chose
// them, so no trust gate applies; their environment is what the editor
// gives plus synaps's scrubbed pass-through, as for every server.
func mcpServers(in []sdk.McpServer) ([]mcp.Server, error) {
	src := mcp.Source{Kind: "ACP client", File: "session/new", Scope: "session"}
	var out []mcp.Server
	for i, s := range in {
		var sv mcp.Server
		switch {
		case s.Stdio != nil:
			sv = mcp.Server{Name: s.Stdio.Name, Type: mcp.TransportStdio, Command: s.Stdio.Command, Args: s.Stdio.Args}
			if len(s.Stdio.Env) > 0 {
				sv.Env = map[string]string{}
				for _, e := range s.Stdio.Env {
					sv.Env[e.Name] = e.Value
				}
			}
		case s.Http != nil:
			sv = mcp.Server{Name: s.Http.Name, Type: mcp.TransportHTTP, URL: s.Http.Url, Headers: headers(s.Http.Headers)}
		case s.Sse != nil:
			sv = mcp.Server{Name: s.Sse.Name, Type: mcp.TransportSSE, URL: s.Sse.Url, Headers: headers(s.Sse.Headers)}
		default:
			return nil, fmt.Errorf("mcpServers[%d]: a transport synaps does not speak (it takes stdio, http and sse)", i)
		}
		if sv.Name == "" {
			return nil, fmt.Errorf("mcpServers[%d]: name is empty", i)
		}
		sv.Source = src
		out = append(out, sv)
	}
	return out, nil
}

func headers(hs []sdk.HttpHeader) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	m := map[string]string{}
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}
