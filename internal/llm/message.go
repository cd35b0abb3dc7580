package llm

import (
	"encoding/json"
	"strings"
)

// Role is who wrote a message. System text is not a message; it travels in
// Request.System.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType is the kind of a content block.
type BlockType string

const (
	BlockText       BlockType = "text"
	BlockToolUse    BlockType = "tool_use"
	BlockToolResult BlockType = "tool_result"
	BlockThinking   BlockType = "thinking"
	// BlockRedactedThinking is thinking the service encrypted; Data holds it.
	// Like a signed thinking block it must be sent back to Anthropic
	// unchanged, and it is dropped for every other provider.
	BlockRedactedThinking BlockType = "redacted_thinking"
	// BlockImage is a picture the user attached to a message (@shot.png);
	// Images holds it, one.
	BlockImage BlockType = "image"
	// BlockDocument is a PDF the user attached (@report.pdf, /attach);
	// Images holds it, one, with media type application/pdf.
	BlockDocument BlockType = "document"
)

// Block is one content block. Which fields are used depends on Type; the
// rest stay zero. The JSON tags are the persisted session format
// (snake_case, omitempty): add fields, never rename them.
type Block struct {
	Type BlockType `json:"type"`

	// Text is the text of a text block.
	Text string `json:"text,omitempty"`
	// Inject marks a text block that extensions added to a user message
	// (before_message): sent to the model with the message, saved with it,
	// never shown as what the user wrote.
	Inject bool `json:"inject,omitempty"`

	// ID, Name and Input describe a tool_use block. Input is a JSON object,
	// already fully assembled from the stream.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`

	// ToolUseID, Content and IsError describe a tool_result block; ToolUseID
	// is the ID of the tool_use block it answers.
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
	// Images are pictures a tool_result carries besides its text (an MCP
	// tool's image content).
	Images []Image `json:"images,omitempty"`

	// Thinking and Signature describe a thinking block. Anthropic verifies
	// the signature when the block is sent back, so both are kept verbatim.
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`

	// Data is the opaque payload of a redacted_thinking block.
	Data string `json:"data,omitempty"`
}

// Image is a base64-encoded picture.
type Image struct {
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// Message is one turn of the conversation.
type Message struct {
	Role    Role    `json:"role"`
	Content []Block `json:"content"`
}

// Text returns the concatenated text blocks of m: what a user sees of it
// (extension injects left out).
func (m *Message) Text() string {
	var sb strings.Builder
	for _, b := range m.Content {
		if b.Type == BlockText && !b.Inject {
			sb.WriteString(b.Text)
		}
	}
	return sb.String()
}

// ToolUses returns the tool_use blocks of m, in order.
func (m *Message) ToolUses() []Block {
	var out []Block
	for _, b := range m.Content {
		if b.Type == BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}
