package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/tool"
)

// modelImageTypes are the image types the model APIs accept; another
// type is described in text instead.
var modelImageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// toResult maps an MCP tool result to what the model sees: text as text;
// images as image blocks; resource links and embedded resources as text;
// structuredContent as its JSON (in place of the text content, which by
// the spec repeats it, as Claude Code does); isError as a tool error.
// The text is cut to maxOutput with a note.
func toResult(r *sdk.CallToolResult, maxOutput int) tool.Result {
	var parts []string
	var images []tool.Image
	for _, c := range r.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			if modelImageTypes[c.MIMEType] {
				images = append(images, tool.Image{MediaType: c.MIMEType, Data: base64.StdEncoding.EncodeToString(c.Data)})
			} else {
				parts = append(parts, fmt.Sprintf("[image of type %s, %d bytes, not shown: the model takes png, jpeg, gif and webp]", c.MIMEType, len(c.Data)))
			}
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio of type %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, resourceLinkText(c))
		case *sdk.EmbeddedResource:
			parts = append(parts, embeddedText(c.Resource))
		default:
			data, _ := json.Marshal(c)
			parts = append(parts, string(data))
		}
	}
	text := strings.Join(parts, "\n")
	if r.StructuredContent != nil {
		if data, err := json.Marshal(r.StructuredContent); err == nil {
			text = string(data)
		}
	}
	if text == "" && len(images) == 0 && !r.IsError {
		text = "(no output)"
	}
	res := tool.Result{Output: tool.CapOutput(text, maxOutput), IsError: r.IsError}
	if len(images) > 0 {
		res.Media = &tool.Media{Images: images}
	}
	return res
}

func resourceLinkText(c *sdk.ResourceLink) string {
	var b strings.Builder
	b.WriteString("resource link: ")
	if c.Name != "" {
		b.WriteString(c.Name + " ")
	}
	b.WriteString(c.URI)
	if c.MIMEType != "" {
		b.WriteString(" (" + c.MIMEType + ")")
	}
	if c.Description != "" {
		b.WriteString(": " + c.Description)
	}
	return b.String()
}

func embeddedText(r *sdk.ResourceContents) string {
	if r == nil {
		return "resource: (empty)"
	}
	head := "resource " + r.URI
	if r.MIMEType != "" {
		head += " (" + r.MIMEType + ")"
	}
	if r.Blob != nil && r.Text == "" {
		return fmt.Sprintf("%s: %d bytes of binary data, not shown", head, len(r.Blob))
	}
	return head + ":\n" + r.Text
}
