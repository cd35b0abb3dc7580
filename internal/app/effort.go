package app

import (
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/llm"
)

// effort is the thinking level a session starts with: --effort, else
// config effort; a bad config value is a note and the default stays.
func (a *App) startEffort() llm.Effort {
	if a.opts.Effort != "" {
		return a.opts.Effort
	}
	v, ok := a.Config.Get(config.KeyEffort)
	if !ok {
		return ""
	}
	e, err := llm.ParseEffort(v)
	if err != nil {
		a.Notes = append(a.Notes, fmt.Sprintf("%s: effort: %v; the model's default is used", a.Config.Path, err))
		return ""
	}
	return e
}

// SetEffort changes the thinking level for the next requests and says
// what the model makes of it.
func (a *App) SetEffort(level string) (string, error) {
	e, err := llm.ParseEffort(level)
	if err != nil {
		return "", err
	}
	a.effort = e
	if a.Agent != nil {
		a.Agent.SetEffort(e)
	}
	out := fmt.Sprintf("effort: %s", EffortLabel(e))
	if n := a.EffortNote(); n != "" {
		out += "\n" + n
	}
	return out, nil
}

// Effort is the thinking level in force ("" for the model's default).
func (a *App) Effort() llm.Effort { return a.effort }

// EffortLabel names a level for people.
func EffortLabel(e llm.Effort) string {
	if e == "" {
		return "the model's default"
	}
	return string(e)
}

// EffortNote says, in one line, when the session's model takes no
// thinking level, so that a level the user set is never silently lost.
func (a *App) EffortNote() string {
	e := a.effort
	if e == "" || e == llm.EffortOff || a.Model == "" {
		return ""
	}
	thinking, reasoning := llm.Thinks(a.Model)
	if thinking || reasoning || strings.HasPrefix(a.Model, "script:") || strings.Count(a.Model, ":") >= 2 {
		return "" // an extension's model gets the level in provider.complete
	}
	return fmt.Sprintf("%s takes no thinking level; effort %s is not sent to it", a.Model, e)
}
