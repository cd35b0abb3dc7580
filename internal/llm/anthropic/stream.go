package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// errTruncated is a stream that ended before message_stop.
var errTruncated = errors.New("the stream ended before message_stop")

// stream assembles one streamed message from its events, in the order the
// API documents them: message_start, then for each content block a
// content_block_start, deltas and a content_block_stop, then message_delta
// and message_stop, with ping events anywhere.
type stream struct {
	emit   func(llm.Event)
	model  string
	stop   string
	usage  llm.Usage
	blocks []*block // by the API's content block index
	done   bool     // message_stop was seen
}

// block is a content block being assembled.
type block struct {
	llm.Block
	known    bool            // a type this client keeps; unknown blocks are skipped
	text     strings.Builder // text or thinking, delta by delta
	input    []byte          // tool_use partial_json, fragment by fragment
	finished bool            // content_block_stop was seen
}

// event is every event's data in one shape, so each is decoded once.
type event struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Model string `json:"model"`
		Usage usage  `json:"usage"`
	} `json:"message"`
	ContentBlock *struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		ID        string `json:"id"`
		Name      string `json:"name"`
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
		Data      string `json:"data"`
	} `json:"content_block"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *usage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type usage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
}

func newStream(emit func(llm.Event)) *stream {
	if emit == nil {
		emit = func(llm.Event) {}
	}
	return &stream{emit: emit}
}

// read feeds events from rd into s until message_stop. A failure to read
// (including the stream ending early) is passed through readErr; an error
// event or a malformed event is returned as it is.
func (s *stream) read(rd *sse.Reader, readErr func(error) error) error {
	for !s.done {
		ev, err := rd.Next()
		if err == io.EOF {
			err = errTruncated
		}
		if err != nil {
			return readErr(err)
		}
		if err := s.handle(ev); err != nil {
			return err
		}
	}
	return nil
}

// handle applies one server-sent event.
func (s *stream) handle(sev sse.Event) error {
	var ev event
	if err := json.Unmarshal([]byte(sev.Data), &ev); err != nil {
		return fmt.Errorf("anthropic: malformed %q event in the stream: %w", sev.Event, err)
	}
	if ev.Type == "" {
		ev.Type = sev.Event
	}
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			s.model = ev.Message.Model
			s.addUsage(&ev.Message.Usage)
		}
	case "content_block_start":
		return s.start(&ev)
	case "content_block_delta":
		return s.delta(&ev)
	case "content_block_stop":
		return s.finish(ev.Index)
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			s.stop = ev.Delta.StopReason
		}
		if ev.Usage != nil {
			s.addUsage(ev.Usage)
		}
	case "message_stop":
		for i := range s.blocks {
			if err := s.finish(i); err != nil {
				return err
			}
		}
		s.done = true
	case "error":
		e := &llm.APIError{Provider: provider}
		if ev.Error != nil {
			e.Type, e.Message = ev.Error.Type, ev.Error.Message
		}
		e.Status = statusOf(e.Type)
		return e
	}
	// "ping" and event types added after this client was written: nothing.
	return nil
}

// addUsage takes the counts u carries. They are cumulative, so the latest
// value of each wins.
func (s *stream) addUsage(u *usage) {
	if u.InputTokens != nil {
		in := *u.InputTokens
		if u.CacheCreationInputTokens != nil {
			in += *u.CacheCreationInputTokens
			s.usage.CacheWriteTokens = *u.CacheCreationInputTokens
		}
		if u.CacheReadInputTokens != nil {
			in += *u.CacheReadInputTokens
			s.usage.CacheReadTokens = *u.CacheReadInputTokens
		}
		s.usage.InputTokens = in
	}
	if u.OutputTokens != nil {
		s.usage.OutputTokens = *u.OutputTokens
	}
}

func (s *stream) start(ev *event) error {
	if ev.Index < 0 || ev.Index > len(s.blocks) || ev.Index < len(s.blocks) && s.blocks[ev.Index] != nil {
		return fmt.Errorf("anthropic: content_block_start with index %d out of order (have %d blocks)", ev.Index, len(s.blocks))
	}
	if ev.Index == len(s.blocks) {
		s.blocks = append(s.blocks, nil)
	}
	b := &block{}
	s.blocks[ev.Index] = b
	if ev.ContentBlock == nil {
		return nil
	}
	cb := ev.ContentBlock
	b.Type = llm.BlockType(cb.Type)
	switch b.Type {
	case llm.BlockText:
		b.known = true
		s.appendText(b, cb.Text, llm.EventText)
	case llm.BlockThinking:
		b.known = true
		b.Signature = cb.Signature
		s.appendText(b, cb.Thinking, llm.EventThinking)
	case llm.BlockToolUse:
		b.known = true
		b.ID, b.Name = cb.ID, cb.Name
	case llm.BlockRedactedThinking:
		b.known = true
		b.Data = cb.Data
	}
	return nil
}

func (s *stream) appendText(b *block, text string, typ llm.EventType) {
	if text == "" {
		return
	}
	b.text.WriteString(text)
	s.emit(llm.Event{Type: typ, Text: text})
}

func (s *stream) delta(ev *event) error {
	if ev.Index < 0 || ev.Index >= len(s.blocks) || s.blocks[ev.Index] == nil {
		return fmt.Errorf("anthropic: content_block_delta for block %d, which was never started", ev.Index)
	}
	b := s.blocks[ev.Index]
	if !b.known || ev.Delta == nil {
		return nil
	}
	if b.finished {
		return fmt.Errorf("anthropic: content_block_delta for block %d after its content_block_stop", ev.Index)
	}
	switch d := ev.Delta; d.Type {
	case "text_delta":
		s.appendText(b, d.Text, llm.EventText)
	case "thinking_delta":
		s.appendText(b, d.Thinking, llm.EventThinking)
	case "signature_delta":
		b.Signature += d.Signature
	case "input_json_delta":
		b.input = append(b.input, d.PartialJSON...)
	}
	// citations_delta and newer delta types carry nothing this client keeps.
	return nil
}

// finish completes block i: its text is fixed and, for a tool call, the
// assembled input is checked and delivered as an EventToolUse.
func (s *stream) finish(i int) error {
	if i < 0 || i >= len(s.blocks) || s.blocks[i] == nil {
		return fmt.Errorf("anthropic: content_block_stop for block %d, which was never started", i)
	}
	b := s.blocks[i]
	if b.finished || !b.known {
		b.finished = true
		return nil
	}
	b.finished = true
	switch b.Type {
	case llm.BlockText:
		b.Text = b.text.String()
	case llm.BlockThinking:
		b.Thinking = b.text.String()
	case llm.BlockToolUse:
		input := bytes.TrimSpace(b.input)
		if len(input) == 0 {
			input = []byte("{}")
		}
		if !json.Valid(input) {
			return fmt.Errorf("anthropic: the model's call of tool %q (id %s) has input that is not valid JSON: %.200s", b.Name, b.ID, input)
		}
		b.Input = json.RawMessage(input)
		tu := b.Block
		s.emit(llm.Event{Type: llm.EventToolUse, ToolUse: &tu})
	}
	return nil
}

// response is the assembled turn; call it after read returned nil.
func (s *stream) response() *llm.Response {
	content := make([]llm.Block, 0, len(s.blocks))
	for _, b := range s.blocks {
		if b != nil && b.known {
			content = append(content, b.Block)
		}
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: content},
		StopReason: s.stop,
		Usage:      s.usage,
		Model:      s.model,
	}
}

// statusOf maps an Anthropic error type to the HTTP status the API uses for
// it, so an error event in a stream is retried and explained like the same
// error as a response.
func statusOf(errType string) int {
	switch errType {
	case "invalid_request_error":
		return 400
	case "authentication_error":
		return 401
	case "billing_error":
		return 402
	case "permission_error":
		return 403
	case "not_found_error":
		return 404
	case "request_too_large":
		return 413
	case "rate_limit_error":
		return 429
	case "api_error":
		return 500
	case "timeout_error":
		return 504
	case "overloaded_error":
		return 529
	}
	return 0
}
