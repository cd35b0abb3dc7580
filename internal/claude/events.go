package claude

import (
	"github.com/synaps-cli/synaps/internal/contract"
)

// EventSpec is one hook event of Claude Code 2.1.332 and what synaps does
// with it.
type EventSpec struct {
	// Name is Claude's ("PreToolUse").
	Name string
	// Hook is the synaps hook whose moment fires it; "" when synaps does
	// not fire it.
	Hook string
	// Matcher is the payload field a group's matcher is tested against;
	// "" when the event takes none (every group runs).
	Matcher string
	// Why says, for an event synaps does not fire, why not: the
	// warning a hooks file that uses it gets, and docs/claude.md.
	Why string
}

// Catalog is every hook event Claude Code 2.1.332 has (the list its
// program validates hooks files against), in the order a session meets
// them. docs/claude.md's table is held equal to it by a test.
var Catalog = []EventSpec{
	{Name: "Setup", Why: "Claude Code fires it for `claude --init` and `--maintenance`; synaps has no such run"},
	{Name: "SessionStart", Hook: contract.HookOnSessionStart, Matcher: "source"},
	{Name: "InstructionsLoaded", Hook: contract.HookOnInstructionsLoaded, Matcher: "load_reason"},
	{Name: "UserPromptSubmit", Hook: contract.HookBeforeMessage},
	{Name: "UserPromptExpansion", Hook: contract.HookOnPromptExpansion, Matcher: "command_name"},
	{Name: "PreSkillShellCommand", Why: "not yet: a command's !`cmd` lines run as bash calls, which PreToolUse hooks see (matcher Bash)"},
	{Name: "PreToolUse", Hook: contract.HookBeforeToolCall, Matcher: "tool_name"},
	{Name: "PermissionRequest", Hook: contract.HookOnPermissionRequest, Matcher: "tool_name"},
	{Name: "PermissionDenied", Hook: contract.HookOnPermissionDenied, Matcher: "tool_name"},
	{Name: "PostToolUse", Hook: contract.HookAfterToolCall, Matcher: "tool_name"},
	{Name: "PostToolUseFailure", Hook: contract.HookAfterToolCall, Matcher: "tool_name"},
	{Name: "PostToolBatch", Hook: contract.HookAfterToolBatch},
	{Name: "Notification", Hook: contract.HookOnNotification, Matcher: "notification_type"},
	{Name: "SubagentStart", Hook: contract.HookOnSubagentStart, Matcher: "agent_type"},
	{Name: "SubagentStop", Hook: contract.HookOnSubagentComplete, Matcher: "agent_type"},
	{Name: "Stop", Hook: contract.HookOnMessageComplete},
	{Name: "StopFailure", Hook: contract.HookOnStopFailure, Matcher: "error"},
	{Name: "PreCompact", Hook: contract.HookOnCompaction, Matcher: "trigger"},
	{Name: "PostCompact", Hook: contract.HookOnCompaction, Matcher: "trigger"},
	{Name: "PreModelSwitch", Hook: contract.HookBeforeModelSwitch, Matcher: "to_model"},
	{Name: "PostModelSwitch", Hook: contract.HookAfterModelSwitch, Matcher: "to_model"},
	{Name: "ConfigChange", Hook: contract.HookOnConfigChange, Matcher: "source"},
	{Name: "CwdChanged", Why: "no moment: synaps's working directory is fixed for the session (a bash `cd` does not carry over)"},
	{Name: "FileChanged", Why: "no moment: synaps watches no files (Claude's watchPaths)"},
	{Name: "DirectoryAdded", Why: "no moment: synaps has no `/add-dir`; `--add-dir` (with `-p`) gives a session's further directories at its start"},
	{Name: "TaskCreated", Hook: contract.HookOnTaskCreated},
	{Name: "TaskCompleted", Hook: contract.HookOnTaskCompleted},
	{Name: "Elicitation", Why: "no moment: synaps does not answer MCP elicitation requests yet"},
	{Name: "ElicitationResult", Why: "no moment: synaps does not answer MCP elicitation requests yet"},
	{Name: "TeammateIdle", Why: "no moment: synaps has no agent teams"},
	{Name: "WorktreeCreate", Why: "no moment: synaps does not create git worktrees for sessions"},
	{Name: "WorktreeRemove", Why: "no moment: synaps does not create git worktrees for sessions"},
	{Name: "MessageDisplay", Why: "no moment: it rewrites what Claude Code's own screen shows"},
	{Name: "SessionEnd", Hook: contract.HookOnSessionEnd, Matcher: "reason"},
}

// Events are the Claude hook events synaps fires, in the order a session
// meets them; otherEvents the ones it knows and does not fire.
var Events, otherEvents = splitCatalog()

func splitCatalog() (fired, other []string) {
	for _, e := range Catalog {
		if e.Hook != "" {
			fired = append(fired, e.Name)
		} else {
			other = append(other, e.Name)
		}
	}
	return fired, other
}

// LookupEvent is the catalog's entry for a Claude event name.
func LookupEvent(name string) (EventSpec, bool) {
	for _, e := range Catalog {
		if e.Name == name {
			return e, true
		}
	}
	return EventSpec{}, false
}

// HandlerTypes are Claude Code 2.1.332's hook handler types; synaps runs
// those not in otherTypes.
var HandlerTypes = []string{"command", "http", "prompt", "agent", "mcp_tool"}

// claudeEvent is the Claude event a synaps hook fires as first (its
// catalog entry's name; on_compaction fires PreCompact, then PostCompact,
// and after_tool_call PostToolUse or, for a failed call,
// PostToolUseFailure); "" for none.
func claudeEvent(hookName string) string {
	for _, e := range Catalog {
		if e.Hook == hookName {
			return e.Name
		}
	}
	return ""
}

// hookEvents are the Claude events a synaps hook may fire as.
func hookEvents(hookName string) []string {
	var out []string
	for _, e := range Catalog {
		if e.Hook == hookName {
			out = append(out, e.Name)
		}
	}
	return out
}
