package anthropic

import (
	"encoding/json"
	"strconv"

	"github.com/synaps-cli/synaps/internal/llm"
)

// The request body is written, not marshalled: see body.

type message struct {
	Role    llm.Role       `json:"role"`
	Content []contentBlock `json:"content"`
}

// contentBlock is a block as the API takes it. Unlike llm.Block, the
// fields a type requires are always present: input on tool_use, thinking
// and signature on thinking.
type contentBlock struct {
	Type      llm.BlockType   `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	// Content is a tool result's text, or (with images) its list of
	// text and image blocks.
	Content   any     `json:"content,omitempty"`
	IsError   bool    `json:"is_error,omitempty"`
	Thinking  *string `json:"thinking,omitempty"`
	Signature *string `json:"signature,omitempty"`
	Data      string  `json:"data,omitempty"`
	// Source is an image block's picture.
	Source *imageSource `json:"source,omitempty"`
	// CacheControl marks a prompt-cache breakpoint (see body).
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

// resultPart is a text or image block inside a tool_result.
type resultPart struct {
	Type   string       `json:"type"`
	Text   string       `json:"text,omitempty"`
	Source *imageSource `json:"source,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type systemBlock struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the cache breakpoint: the service caches the prompt up to
// and including the block that carries it (for 5 minutes, refreshed by
// every hit).
var ephemeral = &cacheControl{Type: "ephemeral"}

type thinkingConfig struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

var (
	emptyObject  = json.RawMessage(`{}`)
	objectSchema = json.RawMessage(`{"type":"object"}`)
)

// format names this wire encoding in an llm.Prefix.
const format = "anthropic-messages"

var (
	comma       = []byte{','}
	closeBody   = []byte("]}")
	toolsKey    = []byte(`,"tools":`)
	systemKey   = []byte(`,"system":`)
	messagesKey = []byte(`,"messages":[`)
)

// body is the request body of req, in parts to be sent one after the
// other: the head (settings, system prompt, tools), the conversation, and
// the end. The conversation's messages come from req.Prefix, each encoded
// once for the session (a Prefix of its own when req has none), so a
// request costs what is new in it.
//
// Prompt caching: up to four cache_control breakpoints, as the Messages
// API allows and its documentation advises for a growing conversation —
// on the last tool, on the system prompt, on the last message (the prompt
// so far is written to the cache), and on the message that was last in
// the previous request (where the previous request wrote the cache, so
// this one reads it there however many blocks the turn added; the
// service looks back only 20 blocks from a breakpoint for an earlier
// entry). Thinking blocks cannot carry a breakpoint; a message with no
// other block is not marked. Everything before the moving breakpoints is
// sent byte for byte as before: what the cache needs.
func body(req *llm.Request) [][]byte {
	p := req.Prefix
	if p == nil {
		p = &llm.Prefix{}
	}
	n := len(req.Messages)
	p.Encode(format, req.Messages, n, appendMessage)

	head := make([]byte, 0, 256)
	head = append(head, `{"model":`...)
	head = appendJSON(head, req.Model)
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
		if req.ThinkingBudget >= maxTokens {
			maxTokens = req.ThinkingBudget + DefaultMaxTokens
		}
	}
	head = append(head, `,"max_tokens":`...)
	head = strconv.AppendInt(head, int64(maxTokens), 10)
	head = append(head, `,"stream":true`...)
	if req.Temperature != nil {
		head = append(head, `,"temperature":`...)
		head = appendJSON(head, *req.Temperature)
	}
	switch {
	case req.AnthropicEffort && req.Effort != "" && req.Effort != llm.EffortOff:
		// Claude 4.6 and later: the level itself, and the model decides
		// when to think.
		head = append(head, `,"thinking":{"type":"adaptive"},"output_config":{"effort":`...)
		head = appendJSON(head, string(req.Effort))
		head = append(head, '}')
	case req.ThinkingBudget > 0:
		head = append(head, `,"thinking":`...)
		head = appendJSON(head, thinkingConfig{Type: "enabled", BudgetTokens: req.ThinkingBudget})
	}
	parts := make([][]byte, 0, 12)
	parts = append(parts, head)
	if req.System != "" {
		parts = append(parts, systemKey, p.System(req.System, encodeSystem))
	}
	if len(req.Tools) > 0 {
		parts = append(parts, toolsKey, p.Tools(req.Tools, encodeTools))
	}
	parts = append(parts, messagesKey)

	// The moving breakpoints: the last message, and the previous
	// request's last one when it is an earlier message.
	last, prev := n-1, p.Mark-1
	if prev >= last {
		prev = -1
	}
	from, sep := 0, false
	add := func(b ...[]byte) {
		if len(b) == 0 {
			return
		}
		if sep {
			parts = append(parts, comma)
		}
		parts, sep = append(parts, b...), true
	}
	for _, i := range []int{prev, last} {
		if i < 0 {
			continue
		}
		add(p.Span(from, i)...)
		if marked, ok := markedMessage(&req.Messages[i]); ok {
			add(marked)
		} else {
			add(p.Span(i, i+1)...)
		}
		from = i + 1
	}
	add(p.Span(from, n)...)
	p.Mark = n
	return append(parts, closeBody)
}

// appendMessage appends the API's encoding of m.
func appendMessage(dst []byte, m *llm.Message) []byte {
	return appendJSON(dst, encodeMessage(m))
}

func encodeMessage(m *llm.Message) message {
	out := message{Role: m.Role, Content: make([]contentBlock, 0, len(m.Content))}
	for i := range m.Content {
		if cb, ok := encodeBlock(&m.Content[i]); ok {
			out.Content = append(out.Content, cb)
		}
	}
	return out
}

// markedMessage is m with a cache breakpoint on its last block that can
// carry one; ok is false when it has none.
func markedMessage(m *llm.Message) ([]byte, bool) {
	out := encodeMessage(m)
	for i := len(out.Content) - 1; i >= 0; i-- {
		if t := out.Content[i].Type; t != llm.BlockThinking && t != llm.BlockRedactedThinking {
			out.Content[i].CacheControl = ephemeral
			return appendJSON(nil, out), true
		}
	}
	return nil, false
}

func encodeSystem(system string) []byte {
	return appendJSON(nil, []systemBlock{{Type: "text", Text: system, CacheControl: ephemeral}})
}

func encodeTools(defs []llm.ToolDef) []byte {
	tools := make([]tool, len(defs))
	for i, t := range defs {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = objectSchema
		}
		tools[i] = tool{Name: t.Name, Description: t.Description, InputSchema: schema}
	}
	tools[len(tools)-1].CacheControl = ephemeral
	return appendJSON(nil, tools)
}

// appendJSON appends v as JSON. The values are synaps's own types, which
// always marshal; a failure (an invalid json.RawMessage from a tool) is
// a bug, and null keeps the body well-formed for the API to refuse.
func appendJSON(dst []byte, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

func encodeBlock(b *llm.Block) (contentBlock, bool) {
	switch b.Type {
	case llm.BlockText:
		return contentBlock{Type: b.Type, Text: b.Text}, b.Text != ""
	case llm.BlockToolUse:
		input := b.Input
		if len(input) == 0 {
			input = emptyObject
		}
		return contentBlock{Type: b.Type, ID: b.ID, Name: b.Name, Input: input}, true
	case llm.BlockToolResult:
		cb := contentBlock{Type: b.Type, ToolUseID: b.ToolUseID, IsError: b.IsError}
		if b.Content != "" {
			cb.Content = b.Content
		}
		if len(b.Images) > 0 {
			parts := make([]resultPart, 0, len(b.Images)+1)
			if b.Content != "" {
				parts = append(parts, resultPart{Type: "text", Text: b.Content})
			}
			for _, im := range b.Images {
				parts = append(parts, resultPart{Type: "image", Source: &imageSource{Type: "base64", MediaType: im.MediaType, Data: im.Data}})
			}
			cb.Content = parts
		}
		return cb, true
	case llm.BlockThinking:
		return contentBlock{Type: b.Type, Thinking: &b.Thinking, Signature: &b.Signature}, b.Signature != ""
	case llm.BlockRedactedThinking:
		return contentBlock{Type: b.Type, Data: b.Data}, b.Data != ""
	case llm.BlockImage, llm.BlockDocument:
		if len(b.Images) == 0 {
			return contentBlock{}, false
		}
		im := b.Images[0]
		return contentBlock{Type: b.Type, Source: &imageSource{Type: "base64", MediaType: im.MediaType, Data: im.Data}}, true
	}
	return contentBlock{}, false
}
