package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// errTruncated is a stream that ended with neither [DONE] nor a
// finish_reason.
var errTruncated = errors.New("the stream ended before [DONE]")

// stream assembles one streamed chat completion from its chunks.
type stream struct {
	emit      func(llm.Event)
	model     string
	finish    string // the raw finish_reason, "" until one arrives
	usage     llm.Usage
	reasoning strings.Builder
	text      strings.Builder
	calls     []*call // in index order
	done      bool    // [DONE] was seen
}

// call is a tool call being assembled.
type call struct {
	index int
	id    string
	name  string
	args  []byte
}

// chunk is one chat.completion.chunk (or an error object).
type chunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Content          string         `json:"content"`
			ReasoningContent string         `json:"reasoning_content"`
			Reasoning        string         `json:"reasoning"`
			ToolCalls        []toolCallPart `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	Error *struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
}

type toolCallPart struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func newStream(emit func(llm.Event)) *stream {
	if emit == nil {
		emit = func(llm.Event) {}
	}
	return &stream{emit: emit}
}

// read feeds chunks from rd into s until [DONE]. A failure to read,
// including a stream that ends too early, is passed through readErr; an
// error object or a malformed chunk is returned as it is.
func (s *stream) read(rd *sse.Reader, readErr func(error) error) error {
	for !s.done {
		ev, err := rd.Next()
		if err == io.EOF {
			if s.finish != "" {
				return nil // no [DONE], but the answer is complete
			}
			err = errTruncated
		}
		if err != nil {
			return readErr(err)
		}
		if err := s.handle(ev.Data); err != nil {
			return err
		}
	}
	return nil
}

// handle applies one data payload.
func (s *stream) handle(data string) error {
	if data == "[DONE]" {
		s.done = true
		return nil
	}
	var c chunk
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		return fmt.Errorf("openai: malformed chunk in the stream: %w: %.200s", err, data)
	}
	if c.Error != nil {
		return streamError(c.Error.Type, c.Error.Message, c.Error.Code)
	}
	if c.Model != "" {
		s.model = c.Model
	}
	if c.Usage != nil {
		s.usage = llm.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
		if d := c.Usage.PromptTokensDetails; d != nil {
			s.usage.CacheReadTokens = d.CachedTokens
		}
	}
	if len(c.Choices) == 0 {
		return nil // the usage chunk, or a keep-alive
	}
	ch := &c.Choices[0]
	if r := ch.Delta.ReasoningContent + ch.Delta.Reasoning; r != "" {
		s.reasoning.WriteString(r)
		s.emit(llm.Event{Type: llm.EventThinking, Text: r})
	}
	if t := ch.Delta.Content; t != "" {
		s.text.WriteString(t)
		s.emit(llm.Event{Type: llm.EventText, Text: t})
	}
	for i := range ch.Delta.ToolCalls {
		s.addToolCallPart(&ch.Delta.ToolCalls[i])
	}
	if ch.FinishReason != "" {
		s.finish = ch.FinishReason
	}
	return nil
}

// addToolCallPart merges one tool-call fragment into the call it belongs
// to: the one with its index or, if the server sends no index, the latest
// call unless the fragment carries a new id.
func (s *stream) addToolCallPart(p *toolCallPart) {
	var c *call
	switch {
	case p.Index != nil:
		for _, have := range s.calls {
			if have.index == *p.Index {
				c = have
				break
			}
		}
	case len(s.calls) > 0 && (p.ID == "" || p.ID == s.calls[len(s.calls)-1].id):
		c = s.calls[len(s.calls)-1]
	}
	if c == nil {
		c = &call{index: len(s.calls)}
		if p.Index != nil {
			c.index = *p.Index
		}
		s.calls = append(s.calls, c)
	}
	if p.ID != "" {
		c.id = p.ID
	}
	c.name += p.Function.Name
	c.args = append(c.args, p.Function.Arguments...)
}

// response checks the tool calls, delivers them as events and returns the
// assembled turn. Call it once, after read returned nil.
func (s *stream) response() (*llm.Response, error) {
	content := make([]llm.Block, 0, 2+len(s.calls))
	if s.reasoning.Len() > 0 {
		content = append(content, llm.Block{Type: llm.BlockThinking, Thinking: s.reasoning.String()})
	}
	if s.text.Len() > 0 {
		content = append(content, llm.Block{Type: llm.BlockText, Text: s.text.String()})
	}
	calls := s.calls
	// Fragments may name indexes out of order; deliver calls by index.
	for i := 1; i < len(calls); i++ {
		for j := i; j > 0 && calls[j].index < calls[j-1].index; j-- {
			calls[j], calls[j-1] = calls[j-1], calls[j]
		}
	}
	var uses []llm.Block
	for _, c := range calls {
		if c.name == "" {
			return nil, fmt.Errorf("openai: the model made tool call %d (id %q) without a tool name", c.index, c.id)
		}
		if c.id == "" {
			c.id = "call_" + strconv.Itoa(c.index)
		}
		args := bytes.TrimSpace(c.args)
		if len(args) == 0 {
			args = []byte("{}")
		}
		if !json.Valid(args) {
			return nil, fmt.Errorf("openai: the model's call of tool %q (id %s) has arguments that are not valid JSON: %.200s", c.name, c.id, args)
		}
		uses = append(uses, llm.Block{Type: llm.BlockToolUse, ID: c.id, Name: c.name, Input: json.RawMessage(args)})
	}
	for i := range uses {
		tu := uses[i]
		s.emit(llm.Event{Type: llm.EventToolUse, ToolUse: &tu})
	}
	content = append(content, uses...)
	stop := stopReason(s.finish)
	if len(uses) > 0 && stop == llm.StopEndTurn {
		stop = llm.StopToolUse
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: content},
		StopReason: stop,
		Usage:      s.usage,
		Model:      s.model,
	}, nil
}

// stopReason maps a finish_reason to the Anthropic name.
func stopReason(finish string) string {
	switch finish {
	case "stop":
		return llm.StopEndTurn
	case "tool_calls", "function_call":
		return llm.StopToolUse
	case "length":
		return llm.StopMaxTokens
	case "content_filter":
		return llm.StopRefusal
	}
	return finish
}

// streamError turns an error object sent inside the stream into an
// APIError. code is a number on some servers (vLLM: 400, 500), a string on
// OpenAI ("rate_limit_exceeded"), or absent.
func streamError(typ, msg string, code json.RawMessage) *llm.APIError {
	e := &llm.APIError{Provider: provider, Type: typ, Message: msg}
	if n, err := strconv.Atoi(string(code)); err == nil {
		e.Status = n
	} else if typ == "server_error" {
		e.Status = 500
	}
	return e
}
