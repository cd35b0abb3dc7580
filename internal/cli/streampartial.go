package cli

import (
	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
)

// --include-partial-messages: as Claude Code writes them, each piece of
// the model's text or thinking is a `stream_event` line whose `event` is
// the Anthropic streaming event it came as (message_start,
// content_block_start, content_block_delta with a text_delta or
// thinking_delta, content_block_stop, message_stop). The whole message
// still follows as its `assistant` line; a consumer that does not want
// the pieces skips the stream_event lines.

// partialState is where the streamed message is.
type partialState struct {
	started bool   // message_start written
	block   string // open block's type: "text", "thinking", or "" none
	index   int    // open block's index
}

// partialEvent writes the stream_event lines ev stands for (the main
// loop's only: a subagent's messages are not streamed).
func (s *claudeStream) partialEvent(ev agent.Event) {
	if ev.Subagent != nil {
		return
	}
	p := &s.parts
	switch ev.Type {
	case agent.EventText, agent.EventThinking:
		kind, delta := "text", map[string]any{"type": "text_delta", "text": ev.Text}
		if ev.Type == agent.EventThinking {
			kind, delta = "thinking", map[string]any{"type": "thinking_delta", "thinking": ev.Text}
		}
		if !p.started {
			p.started, p.index, p.block = true, 0, ""
			s.streamEvent(map[string]any{"type": "message_start", "message": map[string]any{
				"type": "message", "role": "assistant", "model": s.model, "content": []any{},
			}})
		}
		if p.block != kind {
			if p.block != "" {
				s.streamEvent(map[string]any{"type": "content_block_stop", "index": p.index})
				p.index++
			}
			p.block = kind
			block := map[string]any{"type": "text", "text": ""}
			if kind == "thinking" {
				block = map[string]any{"type": "thinking", "thinking": ""}
			}
			s.streamEvent(map[string]any{"type": "content_block_start", "index": p.index, "content_block": block})
		}
		s.streamEvent(map[string]any{"type": "content_block_delta", "index": p.index, "delta": delta})
	case agent.EventMessage, agent.EventTurnEnd:
		if !p.started {
			return
		}
		if p.block != "" {
			s.streamEvent(map[string]any{"type": "content_block_stop", "index": p.index})
		}
		s.streamEvent(map[string]any{"type": "message_stop"})
		*p = partialState{}
	}
}

func (s *claudeStream) streamEvent(event map[string]any) {
	s.enc.Encode(map[string]any{
		"type": "stream_event", "uuid": claude.NewUUID(), "session_id": s.session,
		"parent_tool_use_id": nil, "event": event,
	})
}
