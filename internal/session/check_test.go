package session

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/llm"
)

// The tests' oracle for what repair must produce.

// Check reports the first reason the model APIs would refuse msgs: it must
// start with a user message, every tool call must be answered in the next
// message, every tool result must answer a call of the message before it,
// and results come first in their message. The last message may be an
// assistant message whose calls are still unanswered only when open is
// true (a turn in progress).
func Check(msgs []llm.Message, open bool) error {
	var pending []string
	for i, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			answered := map[string]bool{}
			seenOther := false
			for _, b := range m.Content {
				if b.Type != llm.BlockToolResult {
					seenOther = true
					continue
				}
				if seenOther {
					return fmt.Errorf("message %d: tool result %s comes after other content", i, b.ToolUseID)
				}
				if !contains(pending, b.ToolUseID) || answered[b.ToolUseID] {
					return fmt.Errorf("message %d: tool result %s answers no tool call of the message before it", i, b.ToolUseID)
				}
				answered[b.ToolUseID] = true
			}
			for _, id := range pending {
				if !answered[id] {
					return fmt.Errorf("message %d: tool call %s has no result", i, id)
				}
			}
			if len(m.Content) == 0 {
				return fmt.Errorf("message %d is empty", i)
			}
			pending = nil
		case llm.RoleAssistant:
			if i == 0 {
				return fmt.Errorf("message 0 is from the assistant; a conversation starts with the user")
			}
			if len(pending) > 0 {
				return fmt.Errorf("message %d: tool call %s has no result", i, pending[0])
			}
			if msgs[i-1].Role == llm.RoleAssistant {
				return fmt.Errorf("message %d: two answers in a row with no user message between", i)
			}
			for _, b := range m.Content {
				if b.Type == llm.BlockToolUse {
					pending = append(pending, b.ID)
				}
			}
		default:
			return fmt.Errorf("message %d has the unknown role %q", i, m.Role)
		}
	}
	if len(pending) > 0 && !open {
		return fmt.Errorf("the last message's tool call %s has no result", pending[0])
	}
	return nil
}
