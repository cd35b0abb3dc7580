package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
)

// request is the chat-completions request body. MaxTokens is encoded
// under whichever name the Client was configured with.
type request struct {
	Model               string         `json:"model"`
	Messages            []message      `json:"messages"`
	Tools               []tool         `json:"tools,omitempty"`
	MaxTokens           int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	Temperature         *float64       `json:"temperature,omitempty"`
	Stream              bool           `json:"stream"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type message struct {
	Role string `json:"role"`
	// Content is null only on an assistant message that just calls tools.
	Content    *string    `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type tool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

var objectSchema = json.RawMessage(`{"type":"object"}`)

// encodeRequest maps a neutral request to the chat-completions shape; the
// package documentation lists the choices it makes.
func encodeRequest(req *llm.Request, maxTokensField string) (*request, error) {
	r := &request{
		Model:         req.Model,
		Messages:      make([]message, 0, len(req.Messages)+1),
		Temperature:   req.Temperature,
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
	}
	switch maxTokensField {
	case "max_tokens":
		r.MaxTokens = req.MaxTokens
	case "max_completion_tokens":
		r.MaxCompletionTokens = req.MaxTokens
	default:
		return nil, fmt.Errorf("openai: Config.MaxTokensField is %q; use \"max_tokens\" or \"max_completion_tokens\"", maxTokensField)
	}
	if req.System != "" {
		r.Messages = append(r.Messages, message{Role: "system", Content: &req.System})
	}
	for _, t := range req.Tools {
		params := t.InputSchema
		if len(params) == 0 {
			params = objectSchema
		}
		r.Tools = append(r.Tools, tool{Type: "function", Function: toolFunction{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	for i := range req.Messages {
		r.Messages = appendMessage(r.Messages, &req.Messages[i])
	}
	return r, nil
}

// appendMessage appends the chat-completions messages that m becomes: none,
// one, or (a user message carrying tool results) several.
func appendMessage(out []message, m *llm.Message) []message {
	var texts []string
	var calls []toolCall
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockText:
			if b.Text != "" {
				texts = append(texts, b.Text)
			}
		case llm.BlockToolUse:
			args := string(b.Input)
			if args == "" {
				args = "{}"
			}
			calls = append(calls, toolCall{ID: b.ID, Type: "function", Function: functionCall{Name: b.Name, Arguments: args}})
		case llm.BlockToolResult:
			content := b.Content
			if b.IsError {
				content = "Error: " + content
			}
			if n := len(b.Images); n > 0 {
				// Chat-completions tool messages carry text only.
				content += fmt.Sprintf("\n[the tool returned %d image(s); this API takes no images in tool results]", n)
			}
			out = append(out, message{Role: "tool", Content: &content, ToolCallID: b.ToolUseID})
		}
		// Thinking is never sent to OpenAI-compatible servers.
	}
	text := strings.Join(texts, "\n")
	switch {
	case m.Role == llm.RoleAssistant && len(calls) > 0:
		var content *string
		if text != "" {
			content = &text
		}
		out = append(out, message{Role: "assistant", Content: content, ToolCalls: calls})
	case text != "":
		out = append(out, message{Role: string(m.Role), Content: &text})
	}
	return out
}
