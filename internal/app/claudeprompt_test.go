package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/config"
)

// A prompt hook's model: its own, else the environment's or config's
// small fast model, else Haiku on Anthropic; Claude's names on another
// provider are the session's model.
func TestHookModel(t *testing.T) {
	for _, tc := range []struct {
		name, session, asked, env, conf, want string
	}{
		{"Anthropic session, nothing named", "anthropic/claude-sonnet-4-5", "", "", "", "anthropic/claude-haiku-4-5"},
		{"the hook's model, Claude's short name", "anthropic/claude-sonnet-4-5", "opus", "", "", "anthropic/claude-opus-4-1"},
		{"the hook's model, Claude's full name", "anthropic/claude-sonnet-4-5", "claude-sonnet-5", "", "", "anthropic/claude-sonnet-5"},
		{"ANTHROPIC_SMALL_FAST_MODEL wins over config", "anthropic/x", "", "claude-haiku-9", "openai/gpt-4o-mini", "anthropic/claude-haiku-9"},
		{"config", "anthropic/x", "", "", "openai/gpt-4o-mini", "openai/gpt-4o-mini"},
		{"another provider: Claude's names are the session's model", "openai/gpt-4o", "haiku", "", "", "openai/gpt-4o"},
		{"a scripted session answers its hooks", "script:turns.jsonl", "", "", "", "script:turns.jsonl"},
		{"a synaps model name as it is", "script:turns.jsonl", "openai/o3", "", "", "openai/o3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := ""
			if tc.conf != "" {
				data = KeyClaudeSmallFastModel + " = " + tc.conf + "\n"
			}
			cfg, err := config.Parse("config", []byte(data))
			if err != nil {
				t.Fatal(err)
			}
			a := &App{Model: tc.session, Config: cfg, opts: Options{Getenv: func(k string) string {
				if k == "ANTHROPIC_SMALL_FAST_MODEL" {
					return tc.env
				}
				return ""
			}}}
			if diff := cmp.Diff(tc.want, a.hookModel(tc.asked)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
