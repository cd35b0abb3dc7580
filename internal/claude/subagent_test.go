package claude

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Inside a subagent, a tool event's payload names the child after the
// permission mode, as Claude Code writes it; the main loop's has no such
// keys. SubagentStop's matcher is tested against the agent type, and a
// matcher naming Task (Claude's name before 2.1.63) selects the agent
// tool, which Claude names Agent.
func TestSubagentPayloadsAndMatchers(t *testing.T) {
	sess := Session{ID: "s1", TranscriptPath: "/t.jsonl", Cwd: "/p", PermissionMode: "default", Effort: "high"}
	for _, tc := range []struct {
		name string
		ev   Event
		want string
	}{
		{"main loop PreToolUse", Event{Name: "PreToolUse", Session: sess, ToolName: "Bash", ToolInput: []byte(`{"command":"ls"}`), ToolUseID: "t1"},
			`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default","effort":{"level":"high"},"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}`},
		{"child PreToolUse", Event{Name: "PreToolUse", Session: sess, ToolName: "Bash", ToolInput: []byte(`{"command":"ls"}`), ToolUseID: "t1", AgentID: "a0123456789abcdef", AgentType: "reviewer"},
			`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default","agent_id":"a0123456789abcdef","agent_type":"reviewer","effort":{"level":"high"},"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}`},
		{"SubagentStop", Event{Name: "SubagentStop", Session: sess, AgentID: "a0123456789abcdef", AgentType: "reviewer", AgentTranscriptPath: "/t/subagents/agent-a0123456789abcdef.jsonl", LastAssistantMessage: "done"},
			`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default","agent_id":"a0123456789abcdef","agent_type":"reviewer","effort":{"level":"high"},"hook_event_name":"SubagentStop","stop_hook_active":false,"agent_transcript_path":"/t/subagents/agent-a0123456789abcdef.jsonl","last_assistant_message":"done","background_tasks":[],"session_crons":[]}`},
	} {
		if d := cmp.Diff(tc.want, string(tc.ev.Payload())); d != "" {
			t.Errorf("%s payload (-want +got):\n%s", tc.name, d)
		}
	}
	for _, tc := range []struct {
		matcher string
		ev      Event
		want    bool
	}{
		{"Task", Event{Name: "PreToolUse", ToolName: ClaudeName("agent")}, true},
		{"Agent", Event{Name: "PreToolUse", ToolName: ClaudeName("agent")}, true},
		{"Bash", Event{Name: "PreToolUse", ToolName: ClaudeName("agent")}, false},
		{"reviewer", Event{Name: "SubagentStop", AgentType: "reviewer"}, true},
		{"reviewer", Event{Name: "SubagentStop", AgentType: "general-purpose"}, false},
		{"", Event{Name: "SubagentStop", AgentType: "general-purpose"}, true},
	} {
		m, err := CompileMatcher(tc.matcher)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.ev.Selects(m); got != tc.want {
			t.Errorf("matcher %q on %s %s%s: %v, want %v", tc.matcher, tc.ev.Name, tc.ev.ToolName, tc.ev.AgentType, got, tc.want)
		}
	}
	if SynapsName("Task") != "agent" || SynapsName("Agent") != "agent" {
		t.Errorf("Claude's Task and Agent are not synaps's agent tool")
	}
}
