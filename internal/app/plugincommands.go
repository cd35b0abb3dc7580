package app

// Commands a SynapsCLI manifest declares ("commands"), run from the
// slash line: a program of the plugin, one of its extension's tools, a
// prompt naming one of its skills, or the extension itself
// (command.invoke, output streamed). Their names share the Markdown
// commands' namespace: /name when unique, /plugin:name always.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// HelpItem is one help entry a plugin declares (help_entries), for /help.
type HelpItem struct {
	Plugin string
	plugin.HelpEntry
}

// KeyBinding is one keybind a plugin declares, as the TUI binds it.
type KeyBinding struct {
	Plugin, Dir string
	// Sandbox is the plugin's manifest sandbox section (nil: none): a
	// run_script runs under the plugin's policy.
	Sandbox *plugin.Sandbox
	// toggle: the key toggles the plugin's sidecar (settings
	// _lifecycle_toggle_key), rebound when the setting changes.
	toggle bool
	plugin.Keybind
	// Refused says why the key is not bound ("" when it is): it clashes
	// with one of synaps's keys, or another plugin took it first.
	Refused string
}

// declaredCommands turns a plugin's manifest commands into commands of
// the session, and collects its help entries and keybinds.
func (a *App) declaredCommands(p *plugin.Plugin) []command.Command {
	m := p.Manifest
	if m == nil {
		return nil
	}
	var out []command.Command
	for i := range m.Commands {
		c := m.Commands[i]
		desc := c.Description
		if desc == "" {
			desc = string(c.Kind) + " command"
		}
		if IsBuiltinSlash(c.Name) {
			a.Notes = append(a.Notes, fmt.Sprintf("plugin %s: command /%s is a synaps command, which wins; /%s:%s runs the plugin's", p.ID, c.Name, p.ID, c.Name))
		}
		out = append(out, command.Command{Name: c.Name, Plugin: p.ID, Source: "plugin", File: m.File,
			Description: desc, Declared: &c, Dir: p.Dir, Sandbox: m.Sandbox})
	}
	for _, h := range m.Help {
		a.Help = append(a.Help, HelpItem{Plugin: p.ID, HelpEntry: h})
	}
	a.keysMu.Lock()
	for _, k := range m.Keybinds {
		b := a.bindKey(p.ID, p.Dir, k)
		b.Sandbox = m.Sandbox
		a.Keys = append(a.Keys, b)
	}
	a.keysMu.Unlock()
	a.declareSidecar(p)
	a.bindToggleKey(p, "")
	return out
}

// runDeclared runs a manifest command with the rest of the slash line.
func (a *App) runDeclared(ctx context.Context, c *command.Command, args string) (SlashResult, error) {
	d := c.Declared
	switch d.Kind {
	case plugin.CommandShell:
		return a.runShellCommand(ctx, c, args)
	case plugin.CommandTool:
		return a.runToolCommand(ctx, c, args)
	case plugin.CommandSkill:
		prompt := d.Prompt
		if strings.Contains(prompt, "${args}") {
			prompt = strings.ReplaceAll(prompt, "${args}", args)
		} else if args != "" {
			prompt += "\n" + args
		}
		text := fmt.Sprintf("Use the skill %q of plugin %s (load_skill loads it).\n\n%s", d.Skill, c.Plugin, prompt)
		return SlashResult{Command: &CommandPrompt{Command: c, Prompt: text}}, nil
	case plugin.CommandInteractive:
		if a.Host == nil {
			return SlashResult{}, fmt.Errorf("/%s: extensions are off (--no-extensions)", c.Qualified())
		}
		err := a.Host.InvokeCommand(ctx, c.Plugin, c.Name, strings.Fields(args), a.commandOutput)
		return SlashResult{}, err
	}
	return SlashResult{}, fmt.Errorf("/%s: unknown command kind %q", c.Qualified(), d.Kind)
}

// commandOutput shows one event of a running interactive command.
func (a *App) commandOutput(ev extension.CommandEvent) {
	if a.opts.OnEvent == nil {
		return
	}
	lines := ev.Lines()
	if len(lines) == 0 {
		return
	}
	stream := ev.Kind
	if stream == "table" {
		stream = "system"
	}
	a.opts.OnEvent(agent.Event{Type: agent.EventOutput, Text: strings.Join(lines, "\n"), Stream: stream})
}

// runShellCommand runs a shell-shape command: its program with its args
// and the user's words, in the plugin directory, stdin empty. The output
// is one message, as SynapsCLI shows it.
func (a *App) runShellCommand(ctx context.Context, c *command.Command, args string) (SlashResult, error) {
	d := c.Declared
	prog := d.Command
	if strings.ContainsAny(prog, `/\`) {
		prog = filepath.Join(c.Dir, prog)
	}
	cmd := exec.CommandContext(ctx, prog, append(append([]string(nil), d.Args...), strings.Fields(args)...)...)
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string(nil), a.env...), "SYNAPS_PLUGIN_ID="+c.Plugin, "SYNAPS_PLUGIN_ROOT="+c.Dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	said, err := runUnder(cmd, a.pluginPolicy(c.Plugin, c.Dir, c.Sandbox), stderr.String)
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return SlashResult{}, fmt.Errorf("/%s: cannot run %s (its \"command\" in %s): %v; fix the path (relative to the plugin) or install the program", c.Qualified(), d.Command, c.File, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "plugin command /%s exited with %d\n", c.Qualified(), code)
	if s := strings.TrimRight(stdout.String(), "\n"); s != "" {
		b.WriteString("stdout:\n" + s + "\n")
	}
	if s := strings.TrimRight(stderr.String(), "\n"); s != "" {
		b.WriteString("stderr:\n" + s + "\n")
	}
	for _, l := range said {
		b.WriteString(l + "\n")
	}
	return SlashResult{Output: b.String()}, nil
}

// runToolCommand calls the plugin's tool with the declared input, every
// ${args} in its strings replaced by the user's words. The user asked
// for it by name, so no permission prompt; the output is shown, not sent
// to the model.
func (a *App) runToolCommand(ctx context.Context, c *command.Command, args string) (SlashResult, error) {
	d := c.Declared
	runtime := c.Plugin + ":" + d.Tool
	t, _, ok := a.Tools.Lookup(runtime)
	if !ok {
		return SlashResult{}, fmt.Errorf("/%s calls the tool %s, which plugin %s's extension has not registered (is it running? `synaps extensions list`)", c.Qualified(), runtime, c.Plugin)
	}
	input := json.RawMessage("{}")
	if len(d.Input) > 0 {
		var v any
		if err := json.Unmarshal(d.Input, &v); err != nil {
			return SlashResult{}, fmt.Errorf("/%s: input: %v", c.Qualified(), err)
		}
		v = substituteArgs(v, args)
		b, _ := json.Marshal(v)
		input = b
	}
	res, err := t.Run(ctx, input)
	if err != nil {
		return SlashResult{}, fmt.Errorf("/%s: %w", c.Qualified(), err)
	}
	if res.IsError {
		return SlashResult{}, fmt.Errorf("/%s: %s", c.Qualified(), res.Output)
	}
	return SlashResult{Output: res.Output}, nil
}

// substituteArgs replaces ${args} in every string of v.
func substituteArgs(v any, args string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, "${args}", args)
	case []any:
		for i := range x {
			x[i] = substituteArgs(x[i], args)
		}
	case map[string]any:
		for k := range x {
			x[k] = substituteArgs(x[k], args)
		}
	}
	return v
}

// formatPluginHelp adds the plugins' help entries and keybinds to /help.
func (a *App) formatPluginHelp(b *strings.Builder) {
	if len(a.Help) > 0 {
		b.WriteString("\nplugin help:\n")
		for _, h := range a.Help {
			fmt.Fprintf(b, "%s  %s: %s (plugin %s)\n", h.Command, h.Title, h.Summary, h.Plugin)
			if h.Usage != "" {
				fmt.Fprintf(b, "    usage: %s\n", h.Usage)
			}
			for _, l := range h.Lines {
				fmt.Fprintf(b, "    %s\n", l)
			}
			for _, e := range h.Examples {
				fmt.Fprintf(b, "    e.g. %s  %s\n", e.Command, e.Description)
			}
		}
	}
	if keys := a.KeyBindings(); len(keys) > 0 {
		b.WriteString("\nplugin keys:\n")
		for _, k := range keys {
			what := k.Description
			if what == "" {
				what = k.Action + " " + cmpOr(k.Command, k.Skill, k.Prompt, k.Script)
			}
			state := ""
			if k.Refused != "" {
				state = " [not bound: " + k.Refused + "]"
			}
			fmt.Fprintf(b, "%s  %s (plugin %s)%s\n", k.Key, what, k.Plugin, state)
		}
	}
}

func cmpOr(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// IsBuiltinSlash reports whether /name is one of synaps's own commands,
// which a plugin's command of that name cannot take.
func IsBuiltinSlash(name string) bool {
	switch name {
	case "exit", "ext", "attach", "sidecar", "settings":
		return true
	}
	for _, c := range SlashCommands {
		if strings.Fields(c.Name)[0] == "/"+name {
			return true
		}
	}
	return false
}

// SlashNames lists the slash commands of the session without their "/",
// as Claude Code's stream-json init line does: synaps's own, then every
// command of plugins and command files by its qualified name
// (plugin:name), and by its bare name when that is unique.
func (a *App) SlashNames() []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, c := range SlashCommands {
		add(strings.TrimPrefix(strings.Fields(c.Name)[0], "/"))
	}
	if a.Commands == nil {
		return out
	}
	for _, c := range a.Commands.All() {
		if _, ok, err := a.Commands.Resolve(c.Name); ok && err == nil {
			add(c.Name)
		}
		add(c.Qualified())
	}
	return out
}

// pluginVars are the directories ${CLAUDE_PLUGIN_ROOT} and
// ${CLAUDE_PLUGIN_DATA} name in p's commands: its directory, and its data
// directory (plugin-data/<id>, as its hooks get it), made private when
// first named.
func (a *App) pluginVars(p *plugin.Plugin) command.PluginVars {
	return command.PluginVars{Root: p.Dir, Data: pluginDataDir(a.BaseDir, p.ID)}
}

// pluginDataDir is plugin id's data directory, made (private) when first
// named.
func pluginDataDir(base, id string) string {
	data := filepath.Join(base, "plugin-data", id)
	_ = os.MkdirAll(data, 0o700)
	return data
}
