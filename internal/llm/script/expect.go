package script

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
)

// expectation is what a turn requires of the request that asks for it.
// An empty field checks nothing.
type expectation struct {
	LastToolResultContains string `json:"last_tool_result_contains"`
	LastUserContains       string `json:"last_user_contains"`
	SystemContains         string `json:"system_contains"`
	// ToolsInclude and ToolsExclude are tool names the request must and
	// must not offer the model.
	ToolsInclude []string `json:"tools_include"`
	ToolsExclude []string `json:"tools_exclude"`
}

// check returns an error listing every expectation req does not meet.
func (e *expectation) check(req *llm.Request) error {
	var failed []string
	if want := e.LastToolResultContains; want != "" {
		if got, ok := lastToolResult(req); !ok {
			failed = append(failed, fmt.Sprintf("expected the last tool result to contain %s, but the request has no tool result", quote(want)))
		} else if !strings.Contains(got, want) {
			failed = append(failed, fmt.Sprintf("expected the last tool result to contain %s, but it is %s", quote(want), quote(got)))
		}
	}
	if want := e.LastUserContains; want != "" {
		if got := lastUserText(req); !strings.Contains(got, want) {
			failed = append(failed, fmt.Sprintf("expected the last user message to contain %s, but it is %s", quote(want), quote(got)))
		}
	}
	if want := e.SystemContains; want != "" && !strings.Contains(req.System, want) {
		failed = append(failed, fmt.Sprintf("expected the system prompt to contain %s, but it is %s", quote(want), quote(req.System)))
	}
	if len(e.ToolsInclude)+len(e.ToolsExclude) > 0 {
		offered := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			offered[i] = t.Name
		}
		for _, want := range e.ToolsInclude {
			if !slices.Contains(offered, want) {
				failed = append(failed, fmt.Sprintf("expected the request to offer the tool %s, but its tools are %s", quote(want), quote(strings.Join(offered, ", "))))
			}
		}
		for _, not := range e.ToolsExclude {
			if slices.Contains(offered, not) {
				failed = append(failed, fmt.Sprintf("expected the request not to offer the tool %s, but it does", quote(not)))
			}
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return errors.New(strings.Join(failed, "; "))
}

// lastToolResult is the content of the last tool_result block in req.
func lastToolResult(req *llm.Request) (string, bool) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		c := req.Messages[i].Content
		for j := len(c) - 1; j >= 0; j-- {
			if c[j].Type == llm.BlockToolResult {
				return c[j].Content, true
			}
		}
	}
	return "", false
}

// lastUserText is the text of the latest user message that has any text
// blocks, skipping messages that only carry tool results.
func lastUserText(req *llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := &req.Messages[i]
		if m.Role != llm.RoleUser {
			continue
		}
		var sb strings.Builder
		for _, b := range m.Content {
			if b.Type == llm.BlockText {
				sb.WriteString(b.Text) // extension injects too: scripts check them
			}
		}
		if sb.Len() > 0 {
			return sb.String()
		}
	}
	return ""
}
