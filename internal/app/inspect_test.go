package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContextWindow(t *testing.T) {
	models := []string{"anthropic/claude-sonnet-4-5", "claude-opus-4-1", "anthropic/claude-sonnet-4-5[1m]", "openai/gpt-4o-mini", "openai/gpt-5", "script:x.jsonl", "ollama:llama3", ""}
	var got []int
	for _, m := range models {
		got = append(got, contextWindow(m))
	}
	want := []int{200_000, 200_000, 1_000_000, 128_000, 400_000, 0, 0, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("windows of %q (-want +got):\n%s", models, diff)
	}
}

func TestValidConfigKey(t *testing.T) {
	keys := []string{"model", "price.script", "sandbox.network.allow", "a=b", "a b", "", "x#y", "k\nv"}
	var got []bool
	for _, k := range keys {
		got = append(got, validConfigKey(k))
	}
	if diff := cmp.Diff([]bool{true, true, true, false, false, false, false, false}, got); diff != "" {
		t.Errorf("validConfigKey of %q (-want +got):\n%s", keys, diff)
	}
}

func TestSecretKey(t *testing.T) {
	keys := []string{"anthropic_api_key", "openai_api_key", "github_token", "x.client_secret", "subagent_max_tokens", "model", "keybind.f8", "permissions.allow"}
	var got []bool
	for _, k := range keys {
		got = append(got, secretKey(k))
	}
	if diff := cmp.Diff([]bool{true, true, true, true, false, false, false, false}, got); diff != "" {
		t.Errorf("secretKey of %q (-want +got):\n%s", keys, diff)
	}
}
