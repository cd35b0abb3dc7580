package cli

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
)

// Limits of an unattended run: --max-turns, --max-tool-calls,
// --max-budget-usd and --timeout, each also a config key (a flag wins).
// None is set unless the user sets it. When one stops a run, the session
// is saved and -p exits ExitLimit with a message naming the flag.
type limits struct {
	maxToolCalls int
	maxBudgetUSD float64
	timeout      time.Duration
}

// apply fills o's limits from the flags, else from the config file in
// base. A bad value is a usage error naming the flag or the key.
func (l limits) apply(o *app.Options, base string, g *globals) error {
	if l.maxToolCalls < 0 {
		return usageError{fmt.Errorf("--max-tool-calls %d: give a number of tool calls of 1 or more, or 0 for no limit", l.maxToolCalls)}
	}
	if !validDollars(l.maxBudgetUSD) {
		return usageError{fmt.Errorf("--max-budget-usd %v: give dollars above 0, e.g. 0.50, or 0 for no limit", l.maxBudgetUSD)}
	}
	if l.timeout < 0 {
		return usageError{fmt.Errorf("--timeout %v: give a duration such as 10m or 90s, or 0 for none", l.timeout)}
	}
	o.MaxToolCalls, o.MaxBudgetUSD = l.maxToolCalls, l.maxBudgetUSD
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil || cfg == nil {
		return nil // the app reports an unreadable config
	}
	bad := func(key, v, want string) error {
		return usageError{fmt.Errorf("%s: %s = %q: %s; fix or remove the line", cfg.Path, key, v, want)}
	}
	if v, ok := cfg.Get(config.KeyMaxTurns); ok && g.maxTurns == 0 {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return bad(config.KeyMaxTurns, v, "give a number of model requests")
		}
		o.MaxTurns = n
	}
	if v, ok := cfg.Get(config.KeyMaxToolCalls); ok && o.MaxToolCalls == 0 {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return bad(config.KeyMaxToolCalls, v, "give a number of tool calls")
		}
		o.MaxToolCalls = n
	}
	if v, ok := cfg.Get(config.KeyMaxBudgetUSD); ok && o.MaxBudgetUSD == 0 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !validDollars(f) {
			return bad(config.KeyMaxBudgetUSD, v, "give dollars, e.g. 0.50")
		}
		o.MaxBudgetUSD = f
	}
	return nil
}

// validDollars is a budget that bounds something: 0 (none) or a finite
// amount above it. NaN compares false with everything, so `f < 0` let
// --max-budget-usd NaN through to limit nothing; Inf limits nothing too.
func validDollars(f float64) bool { return f >= 0 && !math.IsInf(f, 0) }

// runTimeout is --timeout, else config timeout.
func (l limits) runTimeout(base string) (time.Duration, error) {
	if l.timeout > 0 {
		return l.timeout, nil
	}
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil || cfg == nil {
		return 0, nil
	}
	v, ok := cfg.Get(config.KeyTimeout)
	if !ok || v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, usageError{fmt.Errorf("%s: timeout = %q: give a duration such as 10m or 90s; fix or remove the line", cfg.Path, v)}
	}
	return d, nil
}
