package tui

import (
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
)

// state is what the status line and completion show of the app, read by
// a worker after its work so the UI never reads the app while it is busy.
type state struct {
	model  string
	usage  llm.Usage
	health string
	ids    []string
	// commands are the Markdown slash commands, as /help names them.
	commands []struct{ Name, Help string }
}

// readState reads the app; call it only where no worker runs, or from
// the worker itself.
func readState(a *app.App) state {
	sts := a.Statuses()
	ids := make([]string, len(sts))
	for i, s := range sts {
		ids[i] = s.ID
	}
	s := state{model: a.Model, health: a.Health(), ids: ids}
	if e := a.Effort(); e != "" && a.Model != "" {
		s.model += " (effort " + string(e) + ")" // /effort sets it
	}
	bare := map[string]int{}
	for _, c := range a.Commands.All() {
		bare[c.Name]++
	}
	for _, c := range a.Commands.All() {
		name := "/" + c.Qualified()
		if c.Declared != nil && bare[c.Name] == 1 && !app.IsBuiltinSlash(c.Name) {
			name = "/" + c.Name // unique: the bare name reaches it
		}
		if c.ArgumentHint != "" {
			name += " [ARGS]"
		}
		s.commands = append(s.commands, struct{ Name, Help string }{name, c.Description})
		if c.Declared != nil {
			for _, sub := range c.Declared.Subcommands {
				s.commands = append(s.commands, struct{ Name, Help string }{name + " " + sub, c.Description})
			}
		}
	}
	s.commands = append(s.commands, a.SidecarCommands()...)
	if a.Agent != nil {
		s.usage = a.Agent.Usage()
	}
	return s
}

// modeText is the permission mode for the status line: the mode, and
// what it means when it is not the default (shift+tab switches).
func (m *model) modeText(mode permission.Mode) string {
	if mode == permission.Default {
		return m.st.dim.Render("⏵ default mode")
	}
	return m.st.warn.Render("⏵⏵ " + string(mode) + ": " + mode.Describe())
}
