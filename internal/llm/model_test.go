package llm

import (
	"strings"
	"testing"
)

func TestParseModel(t *testing.T) {
	tests := []struct {
		in, kind, model string
		err             string // substring; empty means success
	}{
		{in: "anthropic/claude-sonnet-4-5", kind: "anthropic", model: "claude-sonnet-4-5"},
		{in: "openai/gpt-4o", kind: "openai", model: "gpt-4o"},
		{in: "openai/llama3.1:8b", kind: "openai", model: "llama3.1:8b"},
		{in: "openai/Qwen/Qwen2.5-Coder-32B", kind: "openai", model: "Qwen/Qwen2.5-Coder-32B"},
		{in: "script:demo.jsonl", kind: "script", model: "demo.jsonl"},
		{in: "script:C:\\demos\\a:b.jsonl", kind: "script", model: "C:\\demos\\a:b.jsonl"},
		{in: "my-plugin:local:llama3", kind: "extension", model: "my-plugin:local:llama3"},
		{in: "my-plugin:ollama:llama3:70b", kind: "extension", model: "my-plugin:ollama:llama3:70b"},
		{in: "claude-opus-4-1", kind: "anthropic", model: "claude-opus-4-1"},
		{in: "  claude-haiku-4-5\n", kind: "anthropic", model: "claude-haiku-4-5"},
		{in: "gpt-4.1-mini", kind: "openai", model: "gpt-4.1-mini"},
		{in: "o3", kind: "openai", model: "o3"},
		{in: "o4-mini", kind: "openai", model: "o4-mini"},
		{in: "", err: `model "" is not a model name synaps understands; write anthropic/<model>, openai/<model>`},
		{in: "llama3", err: `<plugin>:<provider>:<model> (a model an extension provides), script:FILE (a replay script), or a bare claude-…, gpt-… or o1…-style name`},
		{in: "omni", err: "is not a model name"},
		{in: "anthropic/", err: `model "anthropic/" names no model after the prefix; write e.g. anthropic/claude-sonnet-4-5`},
		{in: "openai/", err: "write e.g. openai/gpt-4o"},
		{in: "script:", err: "write e.g. script:demo.jsonl"},
		{in: "plugin::model", err: "an extension model is written <plugin>:<provider>:<model>, with none of the three parts empty"},
		{in: "a:b", err: "is not a model name"},
	}
	for _, tt := range tests {
		kind, model, err := ParseModel(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseModel(%q) error = %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || kind != tt.kind || model != tt.model {
			t.Errorf("ParseModel(%q) = %q, %q, %v; want %q, %q", tt.in, kind, model, err, tt.kind, tt.model)
		}
	}
}
