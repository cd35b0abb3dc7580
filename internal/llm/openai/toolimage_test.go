package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// Tool messages carry text only: a tool result's images (an MCP tool's)
// follow every tool message of the turn in one user message, as data
// urls, saying which call each came from.
func TestToolResultImages(t *testing.T) {
	m := llm.Message{Role: llm.RoleUser, Content: []llm.Block{
		{Type: llm.BlockToolResult, ToolUseID: "c1", Content: "a logo", Images: []llm.Image{{MediaType: "image/png", Data: "iVBO"}}},
		{Type: llm.BlockToolResult, ToolUseID: "c2", Content: "plain"},
	}}
	got, err := json.Marshal(appendMessage(nil, &m))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"tool","content":"a logo\n[1 image(s) follow in the next message]","tool_call_id":"c1"},` +
		`{"role":"tool","content":"plain","tool_call_id":"c2"},` +
		`{"role":"user","content":[{"type":"text","text":"Image(s) returned by tool call c1:"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}}]}]`
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
