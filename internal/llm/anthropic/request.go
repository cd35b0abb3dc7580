package anthropic

import (
	"encoding/json"

	"github.com/synaps-cli/synaps/internal/llm"
)

// request is the Messages API request body.
type request struct {
	Model       string          `json:"model"`
	MaxTokens   int             `json:"max_tokens"`
	System      string          `json:"system,omitempty"`
	Messages    []message       `json:"messages"`
	Tools       []tool          `json:"tools,omitempty"`
	Temperature *float64        `json:"temperature,omitempty"`
	Thinking    *thinkingConfig `json:"thinking,omitempty"`
	Stream      bool            `json:"stream"`
}

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
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type thinkingConfig struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

var (
	emptyObject  = json.RawMessage(`{}`)
	objectSchema = json.RawMessage(`{"type":"object"}`)
)

// encodeRequest maps a neutral request to the API's shape. Blocks the API
// would reject are left out: empty text, and thinking without the
// signature the API needs to verify it.
func encodeRequest(req *llm.Request) *request {
	r := &request{
		Model:       req.Model,
		MaxTokens:   req.MaxTokens,
		System:      req.System,
		Messages:    make([]message, 0, len(req.Messages)),
		Temperature: req.Temperature,
		Stream:      true,
	}
	if r.MaxTokens <= 0 {
		r.MaxTokens = DefaultMaxTokens
		if req.ThinkingBudget >= r.MaxTokens {
			r.MaxTokens = req.ThinkingBudget + DefaultMaxTokens
		}
	}
	if req.ThinkingBudget > 0 {
		r.Thinking = &thinkingConfig{Type: "enabled", BudgetTokens: req.ThinkingBudget}
	}
	for _, t := range req.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = objectSchema
		}
		r.Tools = append(r.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	for _, m := range req.Messages {
		out := message{Role: m.Role, Content: make([]contentBlock, 0, len(m.Content))}
		for i := range m.Content {
			if cb, ok := encodeBlock(&m.Content[i]); ok {
				out.Content = append(out.Content, cb)
			}
		}
		r.Messages = append(r.Messages, out)
	}
	return r
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
	}
	return contentBlock{}, false
}
