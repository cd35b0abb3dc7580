package permission

import "sync"

// Claude Code's tool names, in one table for the whole of synaps: Claude
// hooks match and read them (internal/claude translates names both
// ways) and Claude permission rules name them (claudeNames). There were
// two tables, which could drift apart.

// claudeTools pairs each synaps built-in that has a Claude Code twin with
// that twin's name.
var claudeTools = [...]struct{ synaps, claude string }{
	{"bash", "Bash"}, {"read", "Read"}, {"write", "Write"}, {"edit", "Edit"},
	{"find", "Glob"}, {"grep", "Grep"}, {"ls", "LS"},
	// The subagent tool: Agent since Claude Code 2.1.63, Task before.
	{"agent", "Agent"},
	// The tools the user answers (agent/userask.go).
	{"ask_user_question", "AskUserQuestion"}, {"exit_plan_mode", "ExitPlanMode"},
	// The tools Claude plugins assume: their inputs are Claude's already.
	{"todo_write", "TodoWrite"}, {"web_fetch", "WebFetch"}, {"web_search", "WebSearch"},
}

// claudeAliases are names Claude tools had before, read as today's.
var claudeAliases = map[string]string{"Task": "agent"}

var toClaude = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(claudeTools))
	for _, t := range claudeTools {
		m[t.synaps] = t.claude
	}
	return m
})

var fromClaude = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(claudeTools)+len(claudeAliases))
	for _, t := range claudeTools {
		m[t.claude] = t.synaps
	}
	for k, v := range claudeAliases {
		m[k] = v
	}
	return m
})

// ClaudeToolName is the Claude Code name of synaps built-in tool name;
// ok is false for a tool with no Claude twin (an extension's, an MCP
// server's).
func ClaudeToolName(name string) (claude string, ok bool) {
	claude, ok = toClaude()[name]
	return claude, ok
}

// SynapsToolName is the synaps built-in a Claude Code tool name stands
// for (an older name too: Task is agent); ok is false for a name synaps
// has no twin of (MultiEdit is an Edit only in name: it is not mapped).
func SynapsToolName(claude string) (name string, ok bool) {
	name, ok = fromClaude()[claude]
	return name, ok
}

// claudeNames maps the Claude Code tool names a permission rule may use
// to the synaps built-ins the rule covers: each its twin, and as in
// Claude Code an Edit rule covers every tool that edits files and a Read
// rule every tool that reads them. Agent and Task rules are Claude-only
// here (claudeOnly): they match nothing.
var claudeNames = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{
		"Read":      {"read", "grep", "find", "ls"},
		"Edit":      {"edit", "write"},
		"MultiEdit": {"edit"},
	}
	for _, t := range claudeTools {
		if _, ok := m[t.claude]; !ok && t.synaps != "agent" {
			m[t.claude] = []string{t.synaps}
		}
	}
	return m
})
