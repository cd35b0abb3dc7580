package plugin

// SynapsCLI's top-level manifest parts for the user: "commands" (slash
// commands in four shapes), "help_entries" (alias "help") and
// "keybinds". SynapsCLI drops the whole plugin when one entry matches no
// shape; here a bad entry is a warning naming it and the rest loads.

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// CommandKind is the shape of a manifest command.
type CommandKind string

// The four shapes, tried in this order as SynapsCLI does.
const (
	// CommandShell runs Command with Args plus the user's words, in the
	// plugin directory.
	CommandShell CommandKind = "shell"
	// CommandTool calls the plugin's registered tool Tool with Input
	// (every ${args} in its strings replaced by the user's words).
	CommandTool CommandKind = "tool"
	// CommandSkill sends the model Prompt naming the skill Skill.
	CommandSkill CommandKind = "skill"
	// CommandInteractive goes to the extension as command.invoke; its
	// output streams back as command.output and task.* notifications.
	CommandInteractive CommandKind = "interactive"
)

// Command is one entry of the manifest's "commands".
type Command struct {
	Name, Description string
	Kind              CommandKind
	Command           string   // shell
	Args              []string // shell
	Tool              string   // tool
	Input             json.RawMessage
	Skill, Prompt     string   // skill
	Subcommands       []string // interactive: names, for help
}

// HelpEntry is one entry of "help_entries": help for a command, shown by
// /help.
type HelpEntry struct {
	ID, Command, Title, Summary string
	Category                    string
	Usage                       string
	Lines                       []string
	Examples                    []HelpExample
}

// HelpExample is one example of a help entry.
type HelpExample struct{ Command, Description string }

// Keybind is one entry of "keybinds": a key and what it does.
type Keybind struct {
	Key         string
	Action      string // slash_command, load_skill, inject_prompt, run_script
	Command     string // slash_command: written without the slash
	Skill       string // load_skill
	Prompt      string // inject_prompt
	Script      string // run_script, a path in the plugin
	Description string
}

// KeybindActions are the actions a keybind may have.
var KeybindActions = []string{"slash_command", "load_skill", "inject_prompt", "run_script"}

// parseUserParts reads "commands", "help_entries" and "keybinds".
func (p *manifestParser) parseUserParts(m *Manifest, top *jsonObject) {
	if v, ok := top.get("commands"); ok {
		items, ok := p.lenientArray("commands", v, `an array of command objects (SynapsCLI's shape)`)
		if ok {
			seen := map[string]bool{}
			for i, it := range items {
				if c, ok := p.command(fmt.Sprintf("commands[%d]", i), it); ok {
					if seen[c.Name] {
						p.warn(fmt.Sprintf("commands[%d]", i), fmt.Sprintf("command %q is declared twice; the first is used", c.Name))
						continue
					}
					seen[c.Name] = true
					m.Commands = append(m.Commands, c)
				}
			}
		}
	}
	key := "help_entries"
	if _, ok := top.get(key); !ok {
		key = "help"
	}
	if v, ok := top.get(key); ok {
		if items, ok := p.lenientArray(key, v, `an array of {"id", "command", "title", "summary"} objects`); ok {
			for i, it := range items {
				if h, ok := p.helpEntry(fmt.Sprintf("%s[%d]", key, i), it); ok {
					m.Help = append(m.Help, h)
				}
			}
		}
	}
	if v, ok := top.get("keybinds"); ok {
		if items, ok := p.lenientArray("keybinds", v, `an array of {"key", "action", ...} objects`); ok {
			for i, it := range items {
				if k, ok := p.keybind(fmt.Sprintf("keybinds[%d]", i), it); ok {
					m.Keybinds = append(m.Keybinds, k)
				}
			}
		}
	}
}

// lenientArray reads an array, warning (not failing) when v is another
// kind of value.
func (p *manifestParser) lenientArray(field string, v json.RawMessage, what string) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if kindOf(v) != "an array" || json.Unmarshal(v, &items) != nil {
		p.warn(field, fmt.Sprintf("must be %s, got %s; ignored", what, kindOf(v)))
		return nil, false
	}
	return items, true
}

// lenientStr reads a member as the type SynapsCLI expects, warning (not
// failing) when it is not; SynapsCLI would drop the plugin.
func (p *manifestParser) lenientStr(obj *jsonObject, field, key string) (string, bool) {
	v, ok := obj.get(key)
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		p.warn(field+"."+key, fmt.Sprintf("must be a string, got %s; the entry is skipped", kindOf(v)))
		return "", false
	}
	return s, true
}

func (p *manifestParser) lenientStrings(obj *jsonObject, field, key string) []string {
	v, ok := obj.get(key)
	if !ok {
		return nil
	}
	var ss []string
	if json.Unmarshal(v, &ss) != nil {
		p.warn(field+"."+key, fmt.Sprintf("must be an array of strings, got %s; it is ignored", kindOf(v)))
		return nil
	}
	return ss
}

// command reads one "commands" entry, deciding its shape as SynapsCLI
// does: command → shell, tool → extension tool, skill + prompt → skill
// prompt, interactive → interactive.
func (p *manifestParser) command(field string, raw json.RawMessage) (Command, bool) {
	obj, ok := decodeObject(raw)
	if !ok {
		p.warn(field, fmt.Sprintf("a command must be an object, got %s; it is skipped", kindOf(raw)))
		return Command{}, false
	}
	var c Command
	name, ok := p.lenientStr(obj, field, "name")
	if !ok || name == "" {
		p.warn(field, `a command needs a "name"; it is skipped`)
		return c, false
	}
	if strings.ContainsAny(name, ": /") || strings.IndexFunc(name, unicode.IsSpace) >= 0 {
		p.warn(field+".name", fmt.Sprintf("command name %q must not contain ':', '/' or whitespace (it is typed after the slash); it is skipped", name))
		return c, false
	}
	c.Name = name
	c.Description, _ = p.lenientStr(obj, field, "description")
	_, hasCmd := obj.get("command")
	_, hasTool := obj.get("tool")
	_, hasSkill := obj.get("skill")
	_, hasPrompt := obj.get("prompt")
	iv, hasInteractive := obj.get("interactive")
	switch {
	case hasCmd:
		c.Kind = CommandShell
		if c.Command, ok = p.lenientStr(obj, field, "command"); !ok {
			return c, false
		}
		if why := CheckPluginPath(c.Command); why != "" {
			p.warn(field+".command", fmt.Sprintf("command %q %s; a plugin command runs a program of the plugin or on PATH; it is skipped", c.Command, why))
			return c, false
		}
		c.Args = p.lenientStrings(obj, field, "args")
	case hasTool:
		c.Kind = CommandTool
		if c.Tool, ok = p.lenientStr(obj, field, "tool"); !ok || c.Tool == "" {
			p.warn(field+".tool", "the tool's name is empty; the command is skipped")
			return c, false
		}
		c.Input, _ = obj.get("input")
	case hasSkill && hasPrompt:
		c.Kind = CommandSkill
		if c.Skill, ok = p.lenientStr(obj, field, "skill"); !ok {
			return c, false
		}
		if c.Prompt, ok = p.lenientStr(obj, field, "prompt"); !ok {
			return c, false
		}
	case hasInteractive:
		var on bool
		if json.Unmarshal(iv, &on) != nil {
			p.warn(field+".interactive", fmt.Sprintf("must be true or false, got %s; the command is skipped", kindOf(iv)))
			return c, false
		}
		if !on {
			return c, false // SynapsCLI skips interactive: false
		}
		c.Kind = CommandInteractive
		if v, ok := obj.get("subcommands"); ok {
			var subs []json.RawMessage
			_ = json.Unmarshal(v, &subs)
			for _, s := range subs {
				var name string
				if json.Unmarshal(s, &name) != nil {
					var o struct{ Name string }
					_ = json.Unmarshal(s, &o)
					name = o.Name
				}
				if name != "" {
					c.Subcommands = append(c.Subcommands, name)
				}
			}
		}
	default:
		p.warn(field, fmt.Sprintf(`command %q has no shape: give "command" (a program to run), "tool" (an extension tool to call), "skill" and "prompt" (a prompt for the model), or "interactive": true (handled by the extension); it is skipped`, name))
		return c, false
	}
	return c, true
}

func (p *manifestParser) helpEntry(field string, raw json.RawMessage) (HelpEntry, bool) {
	obj, ok := decodeObject(raw)
	if !ok {
		p.warn(field, fmt.Sprintf("a help entry must be an object, got %s; it is skipped", kindOf(raw)))
		return HelpEntry{}, false
	}
	var h HelpEntry
	for _, k := range []struct {
		key string
		dst *string
	}{{"id", &h.ID}, {"command", &h.Command}, {"title", &h.Title}, {"summary", &h.Summary}} {
		s, ok := p.lenientStr(obj, field, k.key)
		if !ok || s == "" {
			p.warn(field, fmt.Sprintf(`a help entry needs "id", "command", "title" and "summary"; %q is missing, so it is skipped`, k.key))
			return h, false
		}
		*k.dst = s
	}
	h.Category, _ = p.lenientStr(obj, field, "category")
	h.Usage, _ = p.lenientStr(obj, field, "usage")
	h.Lines = p.lenientStrings(obj, field, "lines")
	if v, ok := obj.get("examples"); ok {
		var ex []struct {
			Command     string `json:"command"`
			Description string `json:"description"`
		}
		if json.Unmarshal(v, &ex) != nil {
			p.warn(field+".examples", `must be an array of {"command", "description"}; ignored`)
		}
		for _, e := range ex {
			h.Examples = append(h.Examples, HelpExample{e.Command, e.Description})
		}
	}
	return h, true
}

func (p *manifestParser) keybind(field string, raw json.RawMessage) (Keybind, bool) {
	obj, ok := decodeObject(raw)
	if !ok {
		p.warn(field, fmt.Sprintf("a keybind must be an object, got %s; it is skipped", kindOf(raw)))
		return Keybind{}, false
	}
	var k Keybind
	if k.Key, ok = p.lenientStr(obj, field, "key"); !ok || k.Key == "" {
		p.warn(field, `a keybind needs a "key"; it is skipped`)
		return k, false
	}
	k.Action, _ = p.lenientStr(obj, field, "action")
	k.Command, _ = p.lenientStr(obj, field, "command")
	k.Skill, _ = p.lenientStr(obj, field, "skill")
	k.Prompt, _ = p.lenientStr(obj, field, "prompt")
	k.Script, _ = p.lenientStr(obj, field, "script")
	k.Description, _ = p.lenientStr(obj, field, "description")
	var missing string
	switch k.Action {
	case "slash_command":
		if k.Command == "" {
			missing = "command"
		}
	case "load_skill":
		if k.Skill == "" {
			missing = "skill"
		}
	case "inject_prompt":
		if k.Prompt == "" {
			missing = "prompt"
		}
	case "run_script":
		if k.Script == "" {
			missing = "script"
		} else if why := CheckPluginPath(k.Script); why != "" {
			p.warn(field+".script", fmt.Sprintf("script %q %s; the keybind is skipped", k.Script, why))
			return k, false
		}
	default:
		p.warn(field+".action", fmt.Sprintf("unknown keybind action %q; use one of %s; the keybind is skipped", k.Action, strings.Join(KeybindActions, ", ")))
		return k, false
	}
	if missing != "" {
		p.warn(field, fmt.Sprintf("a %s keybind needs %q; it is skipped", k.Action, missing))
		return k, false
	}
	return k, true
}
