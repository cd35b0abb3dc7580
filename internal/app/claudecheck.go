package app

import (
	"slices"
	"sort"

	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// CheckClaudeHooks reads a plugin's Claude Code hooks (hooks/hooks.json
// and what its manifest names) as a session would: events lists the
// Claude events they answer, warnings what is skipped and why, err the
// first file that cannot be used (naming the file and the field). A
// plugin without Claude hooks has none of them. install and validate use
// it, so a broken hooks file is said before the plugin is installed, not
// at the next session's start.
func CheckClaudeHooks(p *plugin.Plugin) (events, warnings []string, err error) {
	all, warnings, err := parseClaudeHooks(p)
	for _, h := range all {
		for ev := range h.Events {
			if !slices.Contains(events, ev) {
				events = append(events, ev)
			}
		}
	}
	sort.Strings(events)
	return events, warnings, err
}

// ClaudeHookNames are the synaps hooks a plugin's Claude Code hooks
// subscribe to, for the HOOKS column of a one-off listing (`synaps
// extensions list`); a session lists what its chain holds instead
// (claudeHooks.names). None when they cannot be read: the session says
// why.
func ClaudeHookNames(p *plugin.Plugin) []string {
	all, _, err := parseClaudeHooks(p)
	if err != nil {
		return nil
	}
	var out []string
	for _, h := range all {
		out = subscribedHooks(out, h)
	}
	return out
}

// parseClaudeHooks parses each of a plugin's hooks files, in file-name
// order, up to the first that cannot be used.
func parseClaudeHooks(p *plugin.Plugin) (all []claude.Hooks, warnings []string, err error) {
	files, err := p.ClaudeHooks()
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		h, w, err := claude.Parse(f, files[f])
		warnings = append(warnings, w...)
		if err != nil {
			return all, warnings, err
		}
		all = append(all, h)
	}
	return all, warnings, nil
}

// subscribedHooks adds to names, sorted and once each, the synaps hooks
// h's events answer.
func subscribedHooks(names []string, h claude.Hooks) []string {
	for _, s := range (&claude.Link{Hooks: h}).Subscriptions() {
		if !slices.Contains(names, s.Hook) {
			names = append(names, s.Hook)
		}
	}
	sort.Strings(names)
	return names
}
