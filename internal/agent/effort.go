package agent

import "github.com/synaps-cli/synaps/internal/llm"

// SetEffort changes how hard the model thinks from the next request on.
func (a *Agent) SetEffort(e llm.Effort) { a.cfg.Effort = e }

// Effort is the level in force ("" for the model's default).
func (a *Agent) Effort() llm.Effort { return a.cfg.Effort }

// thinking puts the effort level into req in the form its model takes:
// an Anthropic thinking budget (with room for the answer above it), an
// OpenAI reasoning_effort, or the level itself for an extension's model.
func (a *Agent) thinking(req *llm.Request) {
	e := a.cfg.Effort
	if e == "" {
		return
	}
	req.Effort = e
	thinking, reasoning := llm.Thinks(a.cfg.Model)
	switch {
	case thinking && llm.TakesEffortParam(a.cfg.Model):
		req.AnthropicEffort = true
		// max_tokens caps thinking and answer together: leave the
		// thinking the level asks for room.
		req.MaxTokens = max(req.MaxTokens, e.ThinkingBudget()+8192)
	case thinking && e.ThinkingBudget() > 0:
		req.ThinkingBudget = e.ThinkingBudget()
		if req.MaxTokens <= req.ThinkingBudget {
			req.MaxTokens = req.ThinkingBudget + 8192
		}
	case reasoning:
		req.ReasoningEffort = e.ReasoningEffort()
	}
}
