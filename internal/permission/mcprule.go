package permission

import (
	"fmt"
	"sort"
	"strings"
)

// This file matches MCP rules (mcp__server, mcp__server__tool,
// mcp__server__*) against a tool of a known server. The server part of a
// rule must be the server's name exactly, as configured ("my.srv") or as
// it appears in tool names ("my_srv"): mcp__github covers the tools of
// github, never those of a server named github__evil, whose names also
// begin mcp__github__.

// mcpRuleMatches reports whether an MCP rule's tool part (it begins with
// mcp__) names the tool called name (its model-facing name) of server
// (the server's configured name).
func mcpRuleMatches(ruleTool, server, name string) bool {
	if ruleTool == name {
		return true
	}
	servers := serverSpellings(server)
	tool, ok := strings.CutPrefix(name, "mcp__"+mcpSanitize(server)+"__")
	if !ok {
		tool = "" // a hashed long name: only the exact name and the server's own rules match
	}
	body := strings.TrimPrefix(ruleTool, "mcp__")
	if p, star := strings.CutSuffix(body, "*"); star {
		if p == "" {
			return true
		}
		if !strings.Contains(p, "__") {
			for _, s := range servers {
				if strings.HasPrefix(s, p) {
					return true
				}
			}
			return false
		}
		for sv, tp := range splits(p) {
			if servers[0] == sv || servers[1] == sv {
				if ok && strings.HasPrefix(tool, mcpSanitize(tp)) {
					return true
				}
				if !ok && tp == "" {
					return true
				}
			}
		}
		return false
	}
	if body == servers[0] || body == servers[1] {
		return true
	}
	for sv, tp := range splits(body) {
		if (servers[0] == sv || servers[1] == sv) && ok && mcpSanitize(tp) == tool {
			return true
		}
	}
	return false
}

// serverSpellings are a server's configured name and its name in tool names.
func serverSpellings(server string) [2]string {
	return [2]string{server, mcpSanitize(server)}
}

// splits yields every way to read s as server__tool.
func splits(s string) func(yield func(server, tool string) bool) {
	return func(yield func(string, string) bool) {
		for i := 0; i+2 <= len(s); i++ {
			if s[i:i+2] == "__" && i > 0 {
				if !yield(s[:i], s[i+2:]) {
					return
				}
			}
		}
	}
}

// mcpSanitize is how mcp.ToolName spells a server or tool name in a tool
// name: every character outside [A-Za-z0-9_-] becomes '_'.
func mcpSanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// mcpRuleCanMatch reports whether an MCP rule could match some tool of
// one of the servers.
func mcpRuleCanMatch(ruleTool string, servers []string) bool {
	body := strings.TrimPrefix(ruleTool, "mcp__")
	p, star := strings.CutSuffix(body, "*")
	if star && p == "" {
		return true
	}
	for _, server := range servers {
		sp := serverSpellings(server)
		if star && !strings.Contains(p, "__") && (strings.HasPrefix(sp[0], p) || strings.HasPrefix(sp[1], p)) {
			return true
		}
		if !star && (body == sp[0] || body == sp[1]) {
			return true
		}
		for sv := range splits(p) {
			if sv == sp[0] || sv == sp[1] {
				return true
			}
		}
		if strings.HasPrefix(body, "mcp__"+sp[1]+"__") { // a hashed long name
			return true
		}
	}
	return false
}

// MCPWarnings says which MCP rules can match nothing because they name
// no configured server (servers are the configured names), so that a
// deny written for a server that is spelt otherwise is not silently
// void.
func MCPWarnings(rs Rules, servers []string) []string {
	var out []string
	for _, list := range []struct {
		kind  string
		rules []Rule
	}{{"deny", rs.Deny}, {"ask", rs.Ask}, {"allow", rs.Allow}} {
		for _, r := range list.rules {
			if !strings.HasPrefix(r.Tool, "mcp__") || mcpRuleCanMatch(r.Tool, servers) {
				continue
			}
			known := "no MCP server is configured"
			if len(servers) > 0 {
				s := append([]string(nil), servers...)
				sort.Strings(s)
				known = "the configured servers are " + strings.Join(s, ", ")
			}
			out = append(out, fmt.Sprintf("permissions: %s rule %s matches nothing: it names no configured MCP server (%s); write mcp__<server> or mcp__<server>__<tool> with the server's name as configured", list.kind, r.describe(), known))
		}
	}
	return out
}
