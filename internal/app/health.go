package app

import (
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plural"
)

// Health is the status line's health of the session: its extensions
// (HealthLine) and, when Claude Code settings files (~/.claude/
// settings.json, the project's .claude/settings*.json, --settings) have
// hooks running, how many: they run in the chain without being an
// extension, and "ext 0 ok" alone said nothing of them.
func (a *App) Health() string {
	line := HealthLine(a.Statuses())
	if a.claude == nil {
		return line
	}
	a.claude.mu.Lock()
	n := a.claude.settingsHooks
	a.claude.mu.Unlock()
	if n > 0 {
		line += " · " + plural.Count(n, "settings hook")
	}
	return line
}

// HealthLine summarises extension health for a status line, e.g.
// "ext 3 ok · 1 failed".
func HealthLine(sts []extension.Status) string {
	counts := map[extension.State]int{}
	for _, s := range sts {
		counts[s.State]++
	}
	parts := []string{fmt.Sprintf("ext %d ok", counts[extension.StateLoaded]+counts[extension.StateDegraded])}
	// Starting: in the terminal UI extensions start in the background
	// after the first frame, and "ext 0 ok" alone read as none loaded.
	for _, st := range []extension.State{extension.StateStarting, extension.StateFailed, extension.StatePartial, extension.StateRestarting, extension.StateUntrusted, extension.StateDisabled} {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	// Warnings of plugins that run: a guard whose hook was refused is
	// "ok" but does not guard; /extensions list shows which.
	warnings := 0
	for _, s := range sts {
		if s.State == extension.StateLoaded || s.State == extension.StateDegraded {
			warnings += len(s.Warnings)
		}
	}
	if warnings > 0 {
		parts = append(parts, plural.Count(warnings, "warning"))
	}
	return strings.Join(parts, " · ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
