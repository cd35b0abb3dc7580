package agent

import (
	"errors"
	"fmt"

	"github.com/synaps-cli/synaps/internal/plural"
)

// Limits a user sets on an unattended run, beside Config.MaxTurns. Each
// stops the run cleanly between steps: the session stays valid and can be
// resumed, and the error names the limit.

// ErrLimit is any limit the user set stopping the run (MaxTurns,
// MaxToolCalls, MaxCostUSD); errors.Is finds it in each.
var ErrLimit = errors.New("a limit stopped the run")

// LimitError is a budget that stopped the run: Flag is the flag (or
// config key) that sets it, What says what was reached.
type LimitError struct {
	Flag, What string
}

func (e *LimitError) Error() string { return fmt.Sprintf("stopped: %s (%s)", e.What, e.Flag) }

// Is makes a LimitError an ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// Is makes a TurnLimitError an ErrLimit too.
func (e *TurnLimitError) Is(target error) bool { return target == ErrLimit }

// spentUSD is what this agent's requests cost so far (a resumed
// session's earlier runs excluded).
func (a *Agent) spentUSD() float64 { return a.usage.CostUSD - a.startCost }

// overBudget reports the limit reached before another model request, if
// any.
func (a *Agent) overBudget() error {
	if limit := a.cfg.MaxCostUSD; limit > 0 && a.spentUSD() >= limit {
		return &LimitError{Flag: "--max-budget-usd", What: fmt.Sprintf("the run cost $%.4f, at or over the budget of $%.4f", a.spentUSD(), limit)}
	}
	if limit := a.cfg.MaxTokensTotal; limit > 0 && a.usage.InputTokens+a.usage.OutputTokens >= limit {
		return &LimitError{Flag: "token budget", What: fmt.Sprintf("%d tokens were used, the budget is %d", a.usage.InputTokens+a.usage.OutputTokens, limit)}
	}
	if limit := a.cfg.MaxToolCalls; limit > 0 && a.toolCalls >= limit {
		return &LimitError{Flag: "--max-tool-calls", What: fmt.Sprintf("%s made, the most allowed", plural.Count(a.toolCalls, "tool call")+plural.Pick(a.toolCalls, " was", " were"))}
	}
	return nil
}

// allowCalls is how many of n tool calls the tool-call limit lets run;
// the rest are answered "not run" so the session stays valid.
func (a *Agent) allowCalls(n int) int {
	limit := a.cfg.MaxToolCalls
	if limit <= 0 {
		return n
	}
	return min(n, max(0, limit-a.toolCalls))
}
