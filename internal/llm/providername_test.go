package llm

import "testing"

func TestProviderName(t *testing.T) {
	for model, want := range map[string]string{
		"anthropic/claude-x": "anthropic", "openai/gpt-4o": "openai", "script:demo.jsonl": "script",
		"script:/a:b:c.jsonl": "script", "plug:prov:model": "plug:prov", "plug:prov:m:with:colons": "plug:prov",
		"claude-sonnet": "anthropic", "gpt-4o": "openai", "qwen2": "",
	} {
		if got := ProviderName(model); got != want {
			t.Errorf("ProviderName(%q) = %q, want %q", model, got, want)
		}
	}
}
