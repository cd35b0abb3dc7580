package hook

import (
	"context"
	"time"
)

// Subagent names the child agent loop an event comes from: every event a
// subagent's loop fires carries it, so that a guard can tell a child's
// call from the main loop's and a Claude hook gets the agent_id and
// agent_type Claude Code sends from inside a subagent. The main loop's
// events carry none.
type Subagent struct {
	// ID is unique in the session ("a" and 16 hex digits, as Claude
	// Code's); Type is the agent definition's name ("general-purpose",
	// "code-reviewer").
	ID, Type string
	// ParentToolUseID is the id of the parent's agent tool call that
	// started the child.
	ParentToolUseID string
	// TranscriptPath is where a Claude-shaped copy of the child's
	// transcript is kept, when one is (SubagentStop's
	// agent_transcript_path); "" when none is.
	TranscriptPath string
}

type subagentKey struct{}

// WithSubagent marks ctx as the context of a subagent's loop: events the
// chain builds under it carry s.
func WithSubagent(ctx context.Context, s *Subagent) context.Context {
	return context.WithValue(ctx, subagentKey{}, s)
}

// SubagentOf is the subagent ctx belongs to, or nil in the main loop.
func SubagentOf(ctx context.Context) *Subagent {
	s, _ := ctx.Value(subagentKey{}).(*Subagent)
	return s
}

// ToolUse is the model's tool call an event is about, as far as links
// beyond the wire read it (a Claude hook's tool_use_id and duration_ms).
type ToolUse struct {
	// ID is the model's id of the call ("toolu_…").
	ID string
	// Started is when the call began (after_tool_call reports how long
	// it ran).
	Started time.Time
}

type toolUseKey struct{}

// WithToolUse marks ctx as the context of one tool call: the tool events
// the chain builds under it carry u.
func WithToolUse(ctx context.Context, u *ToolUse) context.Context {
	return context.WithValue(ctx, toolUseKey{}, u)
}

// ToolUseOf is the tool call ctx belongs to, or nil.
func ToolUseOf(ctx context.Context) *ToolUse {
	u, _ := ctx.Value(toolUseKey{}).(*ToolUse)
	return u
}
