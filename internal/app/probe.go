package app

import (
	"context"
	"encoding/json"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/hook"
)

// Judge decides one tool call as this session's agent would — the same
// chain, required_guards, permission rules and mode — without running
// the tool or asking anyone (agent.Probe): `synaps hooks test` and
// `synaps replay`. It needs no model. The extensions and hooks run for
// real; sub makes it a subagent's call.
func (a *App) Judge(ctx context.Context, name string, input json.RawMessage, sub *hook.Subagent) *agent.CallReport {
	if a.judge == nil {
		a.judge = agent.New(a.agentConfig())
	}
	return a.judge.Probe(ctx, name, input, sub)
}
