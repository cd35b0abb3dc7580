package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// A tool result with images (an MCP tool's) is sent as a list of a text
// block and image blocks; without images it stays a plain string.
func TestToolResultImages(t *testing.T) {
	tests := []struct {
		name  string
		block llm.Block
		want  string
	}{
		{
			name:  "text only",
			block: llm.Block{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "hi"},
			want:  `{"type":"tool_result","tool_use_id":"t1","content":"hi"}`,
		},
		{
			name:  "text and an image",
			block: llm.Block{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "a logo", Images: []llm.Image{{MediaType: "image/png", Data: "iVBO"}}},
			want:  `{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a logo"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}]}`,
		},
		{
			name:  "only an image, as an error",
			block: llm.Block{Type: llm.BlockToolResult, ToolUseID: "t1", IsError: true, Images: []llm.Image{{MediaType: "image/gif", Data: "R0lG"}}},
			want:  `{"type":"tool_result","tool_use_id":"t1","content":[{"type":"image","source":{"type":"base64","media_type":"image/gif","data":"R0lG"}}],"is_error":true}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cb, ok := encodeBlock(&tt.block)
			if !ok {
				t.Fatal("block dropped")
			}
			got, err := json.Marshal(cb)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, string(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
