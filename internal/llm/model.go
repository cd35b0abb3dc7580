package llm

import (
	"fmt"
	"strings"
)

// Model kinds returned by ParseModel.
const (
	KindAnthropic = "anthropic"
	KindOpenAI    = "openai"
	KindScript    = "script"
	KindExtension = "extension"
)

// ParseModel splits a model name as users write it (--model, the config
// file, /model) into the provider kind and the provider's own name:
//
//	anthropic/<model>            ("anthropic", <model>)
//	openai/<model>               ("openai", <model>) — any OpenAI-compatible endpoint
//	script:FILE                  ("script", FILE)
//	<plugin>:<provider>:<model>  ("extension", the whole string)
//	claude-…                     ("anthropic", the whole string)
//	gpt-…, o<digit>…             ("openai", the whole string)
//
// "script:" is matched before the extension form, so a script path may
// contain colons; so may the <model> part of an extension name.
func ParseModel(s string) (kind, model string, err error) {
	s = strings.TrimSpace(s)
	if m, ok := strings.CutPrefix(s, "anthropic/"); ok {
		return nonEmpty(s, KindAnthropic, m)
	}
	if m, ok := strings.CutPrefix(s, "openai/"); ok {
		return nonEmpty(s, KindOpenAI, m)
	}
	if f, ok := strings.CutPrefix(s, "script:"); ok {
		return nonEmpty(s, KindScript, f)
	}
	if parts := strings.SplitN(s, ":", 3); len(parts) == 3 {
		if parts[0] == "" || parts[1] == "" || parts[2] == "" {
			return "", "", fmt.Errorf("model %q: an extension model is written <plugin>:<provider>:<model>, with none of the three parts empty", s)
		}
		return KindExtension, s, nil
	}
	switch {
	case strings.HasPrefix(s, "claude-"):
		return KindAnthropic, s, nil
	case strings.HasPrefix(s, "gpt-"), len(s) >= 2 && s[0] == 'o' && '0' <= s[1] && s[1] <= '9':
		return KindOpenAI, s, nil
	}
	return "", "", fmt.Errorf("model %q is not a model name synaps understands; write anthropic/<model>, openai/<model> (any OpenAI-compatible endpoint), <plugin>:<provider>:<model> (a model an extension provides), script:FILE (a replay script), or a bare claude-…, gpt-… or o1…-style name", s)
}

// ProviderName names the provider of a model name as users write it:
// its kind ("anthropic", "openai", "script"), or "<plugin>:<provider>"
// for an extension's model; "" when the name is not one synaps reads.
func ProviderName(model string) string {
	kind, m, err := ParseModel(model)
	if err != nil {
		return ""
	}
	if kind == KindExtension {
		parts := strings.SplitN(m, ":", 3)
		return parts[0] + ":" + parts[1]
	}
	return kind
}

func nonEmpty(s, kind, rest string) (string, string, error) {
	if rest == "" {
		return "", "", fmt.Errorf("model %q names no model after the prefix; write e.g. %s", s, example(kind))
	}
	return kind, rest, nil
}

func example(kind string) string {
	switch kind {
	case KindAnthropic:
		return "anthropic/claude-sonnet-4-5"
	case KindOpenAI:
		return "openai/gpt-4o"
	}
	return "script:demo.jsonl"
}
