package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// openCommands finds the session's slash commands written as Markdown
// files: every enabled plugin's commands/ (Claude Code plugins' and
// synaps's alike), the user's (~/.synaps-cli/commands and Claude Code's
// ~/.claude/commands) and, in a trusted project, .synaps/commands and
// .claude/commands. A file that does not load is a note.
func (a *App) openCommands() {
	roots := []cmdRoot{
		{dir: filepath.Join(a.BaseDir, "commands"), source: "user"},
	}
	if home := a.opts.Getenv("HOME"); home != "" && importClaudeUser(a.Config.Get) {
		roots = append(roots, cmdRoot{dir: filepath.Join(home, ".claude", "commands"), source: "claude user"})
	}
	if a.projectTrusted() {
		roots = append(roots,
			cmdRoot{dir: filepath.Join(a.WorkDir, ".synaps", "commands"), source: "project"},
			cmdRoot{dir: filepath.Join(a.WorkDir, ".claude", "commands"), source: "claude project"})
	}
	// Agents live beside these commands directories (agents/ for
	// commands/); a plugin's are added below.
	var agentRoots []cmdRoot
	for _, r := range roots {
		agentRoots = append(agentRoots, cmdRoot{dir: filepath.Join(filepath.Dir(r.dir), "agents"), plugin: r.plugin, source: r.source})
	}
	var declared []command.Command
	if !a.opts.NoExtensions {
		plugins := a.discover()
		a.keysMu.Lock()
		a.Help, a.Keys = nil, nil
		a.keysMu.Unlock()
		a.side.reset()
		for _, p := range plugins {
			if p.Err == nil && !p.Disabled && !p.Untrusted {
				declared = append(declared, a.declaredCommands(p)...)
				// commands/ and agents/, and the paths a Claude Code
				// manifest adds (bad ones are the plugin's warnings).
				cmds, _ := p.CommandPaths()
				for _, dir := range cmds {
					roots = append(roots, cmdRoot{dir, p.ID, "plugin", a.pluginVars(p), p.Manifest.Format == plugin.FormatGemini})
				}
				agents, _ := p.AgentPaths()
				for _, dir := range agents {
					agentRoots = append(agentRoots, cmdRoot{dir, p.ID, "plugin", a.pluginVars(p), false})
				}
			}
		}
	}
	a.openAgents(agentRoots)
	var all []command.Command
	for _, r := range roots {
		load := command.Load
		if r.toml {
			load = command.LoadTOML // a Gemini CLI extension's commands/*.toml
		}
		cmds, warnings := load(r.dir, r.plugin, r.source)
		for i := range cmds {
			cmds[i].PluginVars = r.vars
			for j, t := range cmds[i].AllowedTools {
				cmds[i].AllowedTools[j] = r.vars.Expand(t)
			}
		}
		all = append(all, a.filterProjectCommands(cmds, r.source)...)
		for _, w := range warnings {
			a.Notes = append(a.Notes, "command not loaded: "+w)
		}
	}
	a.Commands = command.NewSet(append(all, declared...))
}

// cmdRoot is a directory (or one file) of commands or agents.
type cmdRoot struct {
	dir, plugin, source string
	vars                command.PluginVars // a plugin's directories
	// toml: Gemini CLI commands (*.toml) instead of Markdown ones.
	toml bool
}

// openAgents finds the subagent definitions in roots. They are listed
// (/agents) and are the agent tool's agent types (openSubagents).
func (a *App) openAgents(roots []cmdRoot) {
	a.Agents = nil
	for _, r := range roots {
		agents, warnings := command.LoadAgents(r.dir, r.plugin, r.source)
		for i := range agents {
			// Claude Code substitutes a plugin's directories in its agents.
			agents[i].Prompt = r.vars.Expand(agents[i].Prompt)
		}
		a.Agents = append(a.Agents, a.filterProjectAgents(agents, r.source)...)
		for _, w := range warnings {
			a.Notes = append(a.Notes, "agent definition: "+w)
		}
	}
}

// FormatAgents lists the agent definitions for /agents.
func (a *App) FormatAgents() string {
	if len(a.Agents) == 0 {
		return "no agents: put Markdown agent definitions in " + filepath.Join(a.BaseDir, "agents") + ", a trusted project's .synaps/agents or .claude/agents, or a plugin's agents/\n"
	}
	var b strings.Builder
	for _, ag := range a.Agents {
		name := ag.Name
		if ag.Plugin != "" {
			name = ag.Plugin + ":" + ag.Name
		}
		fmt.Fprintf(&b, "%s  %s (%s)", name, ag.Description, ag.Source)
		if len(ag.Tools) > 0 {
			fmt.Fprintf(&b, " tools: %s", strings.Join(ag.Tools, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("(the model starts them with the agent tool; general-purpose is always there)\n")
	return b.String()
}

// CommandPrompt is a command expanded for the model: the prompt, and the
// rules its allowed-tools grant for that turn.
type CommandPrompt struct {
	Command *command.Command
	Prompt  string
	// Line is what the user typed ("/greet Ada"): a session that starts
	// with the command is titled with it, not with Prompt.
	Line  string
	Allow []permission.Rule
	// Notes say what the command asked for that synaps does not do.
	Notes []string
}

// ExpandCommand reads a line as a Markdown command ("/name args" or
// "/plugin:name args"). ok is false when the line names none; a bare
// name two plugins share is an error that lists the qualified names.
func (a *App) ExpandCommand(ctx context.Context, line string) (CommandPrompt, bool, error) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/") {
		return CommandPrompt{}, false, nil
	}
	name, args, _ := strings.Cut(line[1:], " ")
	c, found, err := a.Commands.Resolve(name)
	if err != nil || !found {
		return CommandPrompt{}, found, err
	}
	if c.Declared != nil {
		if c.Declared.Kind != plugin.CommandSkill {
			return CommandPrompt{}, true, fmt.Errorf("/%s is a plugin command that runs in a session, not a prompt", c.Qualified())
		}
		res, err := a.runDeclared(ctx, c, strings.TrimSpace(args))
		if err != nil || res.Command == nil {
			return CommandPrompt{}, true, err
		}
		cp := *res.Command
		cp.Line = line
		return cp, true, nil
	}
	cp := CommandPrompt{Command: c, Line: line}
	for _, r := range c.AllowedTools {
		rule, err := permission.ParseRule(r)
		rule.Source = "/" + c.Qualified() + " allowed-tools"
		if err != nil {
			cp.Notes = append(cp.Notes, fmt.Sprintf("/%s: allowed-tools %q is not a rule synaps reads (%v); that tool asks as usual", c.Qualified(), r, err))
			continue
		}
		cp.Allow = append(cp.Allow, rule)
	}
	if c.Model != "" && c.Model != a.Model {
		cp.Notes = append(cp.Notes, fmt.Sprintf("/%s asks for model %s; the session's model (%s) answers it (/model switches)", c.Qualified(), c.Model, a.Model))
	}
	cp.Prompt = a.expandCommand(ctx, c, strings.TrimSpace(args), cp.Allow)
	if err := a.promptExpansion(ctx, c, strings.TrimSpace(args), &cp); err != nil {
		return CommandPrompt{}, true, err
	}
	return cp, true, nil
}

// SendCommand sends an expanded command's prompt; its allowed-tools run
// without asking until the turn ends.
func (a *App) SendCommand(ctx context.Context, cp CommandPrompt) error {
	if a.Agent == nil {
		return a.NoModel()
	}
	if len(cp.Allow) > 0 && a.Permissions != nil {
		undo := a.Permissions.AllowForNow(cp.Allow)
		defer undo()
	}
	if cp.Line != "" && a.Session != nil {
		a.Session.TitleNext(cp.Line)
	}
	return a.Send(ctx, cp.Prompt)
}

// Notice tells the user something through the session's event stream
// (the TUI's transcript, stderr with -p).
func (a *App) Notice(text string) {
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: text})
	}
}
