package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/internal/llmtest"
)

func TestEncodeRequest(t *testing.T) {
	temp := 0.2
	tests := []struct {
		name string
		req  llm.Request
		want string
	}{
		{
			name: "defaults",
			req:  llm.Request{Model: "m"},
			want: `{"model":"m","max_tokens":8192,"messages":[],"stream":true}`,
		},
		{
			name: "settings and tools",
			req: llm.Request{Model: "m", System: "sys", MaxTokens: 100, Temperature: &temp, Tools: []llm.ToolDef{
				{Name: "bash", Description: "Run a command", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
				{Name: "now"},
			}},
			want: `{"model":"m","max_tokens":100,"temperature":0.2,"stream":true,"messages":[],
				"system":[{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}],
				"tools":[
				{"name":"bash","description":"Run a command","input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}},
				{"name":"now","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}]}`,
		},
		{
			name: "a picture the user attached is an image block",
			req: llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{
				{Type: llm.BlockText, Text: "what is this?"},
				{Type: llm.BlockImage, Images: []llm.Image{{MediaType: "image/png", Data: "iVBO"}}},
			}}}},
			want: `{"model":"m","max_tokens":8192,"stream":true,"messages":[{"role":"user","content":[
				{"type":"text","text":"what is this?"},
				{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"},"cache_control":{"type":"ephemeral"}}]}]}`,
		},
		{
			name: "thinking budget above the default raises max_tokens",
			req:  llm.Request{Model: "m", ThinkingBudget: 16000},
			want: `{"model":"m","max_tokens":24192,"thinking":{"type":"enabled","budget_tokens":16000},"messages":[],"stream":true}`,
		},
		{
			name: "tool round trip",
			req: llm.Request{Model: "m", Messages: []llm.Message{
				{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "go"}}},
				{Role: llm.RoleAssistant, Content: []llm.Block{
					{Type: llm.BlockText, Text: ""}, // rejected by the API: dropped
					{Type: llm.BlockThinking, Thinking: "unsigned, from another model"},
					{Type: llm.BlockToolUse, ID: "t1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)},
					{Type: llm.BlockToolUse, ID: "t2", Name: "now"}, // no input: {}
				}},
				{Role: llm.RoleUser, Content: []llm.Block{
					{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "a\nb"},
					{Type: llm.BlockToolResult, ToolUseID: "t2", Content: "clock broken", IsError: true},
					{Type: llm.BlockText, Text: "and then?"},
				}},
			}},
			want: `{"model":"m","max_tokens":8192,"stream":true,"messages":[
				{"role":"user","content":[{"type":"text","text":"go"}]},
				{"role":"assistant","content":[
					{"type":"tool_use","id":"t1","name":"bash","input":{"command":"ls"}},
					{"type":"tool_use","id":"t2","name":"now","input":{}}]},
				{"role":"user","content":[
					{"type":"tool_result","tool_use_id":"t1","content":"a\nb"},
					{"type":"tool_result","tool_use_id":"t2","content":"clock broken","is_error":true},
					{"type":"text","text":"and then?","cache_control":{"type":"ephemeral"}}]}]}`,
		},
		{
			name: "signed thinking with empty text keeps both fields",
			req: llm.Request{Model: "m", Messages: []llm.Message{
				{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockThinking, Signature: "sig"}}},
			}},
			// A thinking block cannot carry a cache breakpoint.
			want: `{"model":"m","max_tokens":8192,"stream":true,"messages":[
				{"role":"assistant","content":[{"type":"thinking","thinking":"","signature":"sig"}]}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bytes.Join(body(&tt.req), nil)
			if diff := llmtest.JSONDiff(t, tt.want, string(got)); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
