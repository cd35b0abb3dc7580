package agent

import (
	"errors"
	"fmt"
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

// overBudget reports the limit reached before another model request, if
// any: the run's, shared by the whole tree (budget), or this agent's own
// token budget (a subagent's).
func (a *Agent) overBudget() error {
	if err := a.cfg.tree.exhausted(a.child != nil); err != nil {
		return err
	}
	if limit := a.cfg.MaxTokensTotal; limit > 0 && a.usage.InputTokens+a.usage.OutputTokens >= limit {
		return &LimitError{Flag: "token budget", What: fmt.Sprintf("%d tokens were used, the budget is %d", a.usage.InputTokens+a.usage.OutputTokens, limit)}
	}
	return nil
}

// allowCalls is how many of n tool calls the tool-call limit lets run;
// the rest are answered "not run" so the session stays valid.
func (a *Agent) allowCalls(n int) int { return a.cfg.tree.takeCalls(n) }
