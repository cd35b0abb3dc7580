package permission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The one table gives what the two tables it replaced gave: the names
// both ways (with Task read as agent, MultiEdit not mapped) and what a
// Claude rule's tool name covers.
func TestClaudeToolTables(t *testing.T) {
	to := map[string]string{}
	for _, n := range []string{"bash", "read", "write", "edit", "find", "grep", "ls", "agent", "ask_user_question", "exit_plan_mode", "todo_write", "web_fetch", "web_search", "my-ext:tool", "mcp__s__t"} {
		if c, ok := ClaudeToolName(n); ok {
			to[n] = c
		}
	}
	wantTo := map[string]string{
		"bash": "Bash", "read": "Read", "write": "Write", "edit": "Edit",
		"find": "Glob", "grep": "Grep", "ls": "LS", "agent": "Agent",
		"ask_user_question": "AskUserQuestion", "exit_plan_mode": "ExitPlanMode",
		"todo_write": "TodoWrite", "web_fetch": "WebFetch", "web_search": "WebSearch",
	}
	if d := cmp.Diff(wantTo, to); d != "" {
		t.Errorf("ClaudeToolName (-want +got):\n%s", d)
	}
	from := map[string]string{}
	for _, n := range []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "Agent", "Task", "AskUserQuestion", "ExitPlanMode", "TodoWrite", "WebFetch", "WebSearch", "MultiEdit", "NotebookEdit"} {
		if s, ok := SynapsToolName(n); ok {
			from[n] = s
		}
	}
	wantFrom := map[string]string{
		"Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit",
		"Glob": "find", "Grep": "grep", "LS": "ls", "Agent": "agent", "Task": "agent",
		"AskUserQuestion": "ask_user_question", "ExitPlanMode": "exit_plan_mode",
		"TodoWrite": "todo_write", "WebFetch": "web_fetch", "WebSearch": "web_search",
	}
	if d := cmp.Diff(wantFrom, from); d != "" {
		t.Errorf("SynapsToolName (-want +got):\n%s", d)
	}
	wantRules := map[string][]string{
		"Bash": {"bash"}, "Read": {"read", "grep", "find", "ls"}, "Edit": {"edit", "write"},
		"MultiEdit": {"edit"}, "Write": {"write"}, "Glob": {"find"}, "Grep": {"grep"}, "LS": {"ls"},
		"AskUserQuestion": {"ask_user_question"}, "ExitPlanMode": {"exit_plan_mode"},
		"TodoWrite": {"todo_write"}, "WebFetch": {"web_fetch"}, "WebSearch": {"web_search"},
	}
	if d := cmp.Diff(wantRules, claudeNames()); d != "" {
		t.Errorf("claudeNames (-want +got):\n%s", d)
	}
}
