package permission

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mcpCall(server, tool string) Call {
	name := "mcp__" + mcpSanitize(server) + "__" + mcpSanitize(tool)
	return Call{Name: name, RuntimeName: name, MCPServer: server, Input: []byte(`{}`)}
}

// MCP rules match server names exactly (Hardening III item 7):
// mcp__github does not cover the tools of a server named github__evil,
// and a rule may name a server as it is configured (my.srv).
func TestMCPServerExact(t *testing.T) {
	for _, c := range []struct {
		allow, deny string
		call        Call
		want        Verdict
	}{
		{allow: "mcp__github", call: mcpCall("github", "issues"), want: Allow},
		{allow: "mcp__github", call: mcpCall("github__evil", "wipe"), want: Ask},
		{allow: "mcp__github__*", call: mcpCall("github__evil", "wipe"), want: Ask},
		{allow: "mcp__github__*", call: mcpCall("github", "wipe"), want: Allow},
		{allow: "mcp__github__evil", call: mcpCall("github__evil", "wipe"), want: Allow},
		{allow: "mcp__github__evil", call: mcpCall("github", "evil"), want: Allow},
		{allow: "mcp__github__evil__wipe", call: mcpCall("github__evil", "wipe"), want: Allow},
		{allow: "mcp__git*", call: mcpCall("gitlab", "x"), want: Allow},
		{allow: "mcp__github__is*", call: mcpCall("github", "issues"), want: Allow},
		{allow: "mcp__github__is*", call: mcpCall("github__isx", "y"), want: Ask},
		{allow: "mcp__*", call: mcpCall("any", "x"), want: Allow},
		{deny: "mcp__my.srv__x", call: mcpCall("my.srv", "x"), want: Deny},
		{deny: "mcp__my.srv", call: mcpCall("my.srv", "y"), want: Deny},
		{deny: "mcp__my_srv__x", call: mcpCall("my.srv", "x"), want: Deny},
		{deny: "mcp__my.srv__x", call: mcpCall("my.srv", "y"), want: Ask},
	} {
		p := New(Config{Rules: Rules{Allow: rules(t, c.allow), Deny: rules(t, c.deny)}, WorkDir: "/proj"})
		if d := p.Decide(c.call); d.Verdict != c.want {
			t.Errorf("%s (server %q) with allow %q deny %q: %v (%s), want %v", c.call.Name, c.call.MCPServer, c.allow, c.deny, d.Verdict, d.Why, c.want)
		}
	}
}

// A rule naming no configured MCP server is said, not silently void.
func TestMCPWarnings(t *testing.T) {
	rs := Rules{
		Deny:  Sourced(rules(t, "mcp__my.srv__x, mcp__gthub__y, mcp__github"), "--disallowedTools"),
		Allow: rules(t, "mcp__github__evil, mcp__*, mcp__gi*, Bash, mcp__nope*"),
	}
	got := MCPWarnings(rs, []string{"my.srv", "github"})
	want := []string{
		"permissions: deny rule mcp__gthub__y (--disallowedTools) matches nothing: it names no configured MCP server (the configured servers are github, my.srv); write mcp__<server> or mcp__<server>__<tool> with the server's name as configured",
		"permissions: allow rule mcp__nope* matches nothing: it names no configured MCP server (the configured servers are github, my.srv); write mcp__<server> or mcp__<server>__<tool> with the server's name as configured",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("MCPWarnings (-want +got):\n%s", d)
	}
	if got := MCPWarnings(Rules{Deny: rules(t, "mcp__x")}, nil); len(got) != 1 || !strings.Contains(got[0], "no MCP server is configured") {
		t.Errorf("MCPWarnings with no server = %q", got)
	}
}
