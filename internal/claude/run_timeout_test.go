package claude

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDefaultTimeouts: a handler without a timeout gets Claude Code's
// default for its type and event; its own timeout wins.
func TestDefaultTimeouts(t *testing.T) {
	tests := []struct {
		typ, event string
		own        float64
		want       float64
	}{
		{"command", "PreToolUse", 0, 600},
		{"http", "Stop", 0, 600},
		{"mcp_tool", "PostToolUse", 0, 600},
		{"command", "UserPromptSubmit", 0, 30},
		{"command", "PreModelSwitch", 0, 30},
		{"http", "PostModelSwitch", 0, 30},
		{"command", "SessionEnd", 0, 1.5},
		{"prompt", "SessionEnd", 0, 1.5},
		{"prompt", "PreToolUse", 0, 30},
		{"agent", "Stop", 0, 60},
		{"agent", "PreModelSwitch", 0, 60},
		{"command", "SessionEnd", 20, 20},
		{"command", "PreToolUse", 7, 7},
	}
	for _, tt := range tests {
		h := Handler{Type: tt.typ, Timeout: tt.own}
		if diff := cmp.Diff(tt.want, TimeoutOf(tt.event, h)); diff != "" {
			t.Errorf("%s on %s (own %v): (-want +got):\n%s", tt.typ, tt.event, tt.own, diff)
		}
		if got, want := timeoutFor(h, tt.event).Seconds(), tt.want; got != want {
			t.Errorf("%s on %s: timeoutFor %v s, TimeoutOf %v s", tt.typ, tt.event, got, want)
		}
	}
}
