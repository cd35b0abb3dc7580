package openai

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
)

// The request body is written, not marshalled: see body.

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type message struct {
	Role string `json:"role"`
	// Content is null only on an assistant message that just calls tools;
	// a *string, or []contentPart for a user message with images.
	Content    any        `json:"content"`
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

// format names this wire encoding in an llm.Prefix.
const format = "openai-chat"

var (
	comma     = []byte{','}
	closeBody = []byte("]}")
)

// body is the chat-completions body of req, in parts (head, the
// conversation, the end); the package documentation lists the choices
// the encoding makes. The messages come from req.Prefix, each encoded
// once for the session, so the prefix is byte-stable from request to
// request: OpenAI and compatible servers that cache prompts do it by
// prefix, automatically.
func body(req *llm.Request, maxTokensField string) ([][]byte, error) {
	p := req.Prefix
	if p == nil {
		p = &llm.Prefix{}
	}
	n := len(req.Messages)
	p.Encode(format, req.Messages, n, func(dst []byte, m *llm.Message) []byte {
		for i, out := range appendMessage(nil, m) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, out)
		}
		return dst
	})
	head := make([]byte, 0, 256)
	head = append(head, `{"model":`...)
	head = appendJSON(head, req.Model)
	head = append(head, `,"stream":true,"stream_options":{"include_usage":true}`...)
	if req.MaxTokens != 0 {
		switch maxTokensField {
		case "max_tokens", "max_completion_tokens":
			head = append(head, `,"`+maxTokensField+`":`...)
			head = strconv.AppendInt(head, int64(req.MaxTokens), 10)
		}
	}
	switch maxTokensField {
	case "max_tokens", "max_completion_tokens":
	default:
		return nil, fmt.Errorf("openai: Config.MaxTokensField is %q; use \"max_tokens\" or \"max_completion_tokens\"", maxTokensField)
	}
	if req.Temperature != nil {
		head = append(head, `,"temperature":`...)
		head = appendJSON(head, *req.Temperature)
	}
	if req.ReasoningEffort != "" {
		head = append(head, `,"reasoning_effort":`...)
		head = appendJSON(head, req.ReasoningEffort)
	}
	parts := make([][]byte, 0, 6)
	parts = append(parts, head)
	if len(req.Tools) > 0 {
		parts = append(parts, []byte(`,"tools":`), p.Tools(req.Tools, encodeTools))
	}
	parts = append(parts, []byte(`,"messages":[`))
	sep := false
	if req.System != "" {
		parts = append(parts, p.System(req.System, func(s string) []byte {
			return appendJSON(nil, message{Role: "system", Content: &s})
		}))
		sep = true
	}
	if msgs := p.Span(0, n); len(msgs) > 0 {
		if sep {
			parts = append(parts, comma)
		}
		parts = append(parts, msgs...)
	}
	return append(parts, closeBody), nil
}

func encodeTools(defs []llm.ToolDef) []byte {
	tools := make([]tool, len(defs))
	for i, t := range defs {
		params := t.InputSchema
		if len(params) == 0 {
			params = objectSchema
		}
		tools[i] = tool{Type: "function", Function: toolFunction{Name: t.Name, Description: t.Description, Parameters: params}}
	}
	return appendJSON(nil, tools)
}

// appendJSON appends v as JSON. The values are synaps's own types, which
// always marshal (tool inputs and schemas are checked before they get
// here); a failure is a bug, and null keeps the body well-formed for the
// server to refuse.
func appendJSON(dst []byte, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

// appendMessage appends the chat-completions messages that m becomes: none,
// one, or (a user message carrying tool results) several.
func appendMessage(out []message, m *llm.Message) []message {
	var texts []string
	var images []llm.Image
	var calls []toolCall
	// toolImages are the tool results' pictures (an MCP tool's): tool
	// messages carry text only, so they follow every tool message of the
	// turn in one user message that names the call each came from.
	var toolImages []contentPart
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
				content += fmt.Sprintf("\n[%d image(s) follow in the next message]", n)
				toolImages = append(toolImages, contentPart{Type: "text", Text: fmt.Sprintf("Image(s) returned by tool call %s:", b.ToolUseID)})
				for _, im := range b.Images {
					toolImages = append(toolImages, contentPart{Type: "image_url", ImageURL: &imageURL{URL: "data:" + im.MediaType + ";base64," + im.Data}})
				}
			}
			out = append(out, message{Role: "tool", Content: &content, ToolCallID: b.ToolUseID})
		case llm.BlockImage, llm.BlockDocument:
			images = append(images, b.Images...)
		}
		// Thinking is never sent to OpenAI-compatible servers.
	}
	if len(toolImages) > 0 {
		out = append(out, message{Role: "user", Content: toolImages})
	}
	text := strings.Join(texts, "\n")
	switch {
	case m.Role == llm.RoleAssistant && len(calls) > 0:
		var content *string
		if text != "" {
			content = &text
		}
		out = append(out, message{Role: "assistant", Content: content, ToolCalls: calls})
	case m.Role == llm.RoleUser && len(images) > 0:
		// Pictures go as image_url parts with data URLs, after the text.
		parts := make([]contentPart, 0, len(images)+1)
		if text != "" {
			parts = append(parts, contentPart{Type: "text", Text: text})
		}
		for i, im := range images {
			url := "data:" + im.MediaType + ";base64," + im.Data
			if im.MediaType == "application/pdf" {
				// A PDF goes as a file part (OpenAI's chat completions).
				parts = append(parts, contentPart{Type: "file", File: &filePart{Filename: fmt.Sprintf("document-%d.pdf", i+1), FileData: url}})
				continue
			}
			parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: url}})
		}
		out = append(out, message{Role: "user", Content: parts})
	case text != "":
		out = append(out, message{Role: string(m.Role), Content: &text})
	}
	return out
}

// contentPart is one part of a user message with images.
type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
	File     *filePart `json:"file,omitempty"`
}

// filePart is a document sent inline, as a data URL.
type filePart struct {
	Filename string `json:"filename"`
	FileData string `json:"file_data"`
}

type imageURL struct {
	URL string `json:"url"`
}
