package llm

import (
	"fmt"
	"strings"
)

// Effort is how hard the model thinks before it answers, in the levels
// users know from Claude Code, pi and SynapsCLI. Each provider gets what it
// takes: Anthropic an extended-thinking budget, OpenAI-compatible
// reasoning models a reasoning_effort, an extension's model the level
// itself. "" means the model's own default (no thinking asked for).
type Effort string

// The levels, from none to the most a provider allows.
const (
	EffortOff    Effort = "off"
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
	EffortMax    Effort = "max"
)

// Efforts lists the levels in order.
var Efforts = []Effort{EffortOff, EffortLow, EffortMedium, EffortHigh, EffortMax}

// ParseEffort reads a level ("" is the default); an unknown one is an
// error listing the levels.
func ParseEffort(s string) (Effort, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return "", nil
	}
	if s == "maximum" || s == "xhigh" {
		return EffortMax, nil
	}
	for _, e := range Efforts {
		if string(e) == s {
			return e, nil
		}
	}
	return "", fmt.Errorf("unknown effort %q; use off, low, medium, high or max", s)
}

// ThinkingBudget is the Anthropic extended-thinking budget, in tokens,
// of a level (0: thinking off). The API takes 1024 and more.
func (e Effort) ThinkingBudget() int {
	switch e {
	case EffortLow:
		return 2048
	case EffortMedium:
		return 8192
	case EffortHigh:
		return 16384
	case EffortMax:
		return 32000
	}
	return 0
}

// ReasoningEffort is the OpenAI reasoning_effort of a level ("" for none).
func (e Effort) ReasoningEffort() string {
	switch e {
	case EffortLow, EffortMedium, EffortHigh:
		return string(e)
	case EffortMax:
		return "high"
	}
	return ""
}

// TakesEffortParam reports whether an Anthropic model takes the level
// itself (output_config.effort, with adaptive thinking): Claude 4.6 and
// later. Older Claude models with extended thinking get a budget.
func TakesEffortParam(model string) bool {
	id := ModelID(model)
	for _, p := range []string{"claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5", "claude-haiku-5"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

// Thinks reports which way a model takes an effort level: Anthropic's
// extended thinking, or an OpenAI-style reasoning_effort. A model id
// (with or without its provider prefix) that takes neither gets none.
func Thinks(model string) (thinking, reasoning bool) {
	id := ModelID(model)
	if TakesEffortParam(id) {
		return true, false
	}
	for _, p := range []string{"claude-3-7", "claude-sonnet-4", "claude-opus-4", "claude-haiku-4", "claude-4"} {
		if strings.HasPrefix(id, p) {
			return true, false
		}
	}
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(id, p) {
			return false, true
		}
	}
	return false, false
}
