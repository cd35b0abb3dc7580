package app

// Plugin keybinds: SynapsCLI's key notation ("C-k", "A-S-x", "F8") read
// into the terminal UI's key names ("ctrl+k", "alt+shift+x", "f8"), and
// bound only where they clash with none of synaps's own keys
// (docs/keys.md) and no earlier plugin took them.

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// ReservedKeys are the TUI's own keys and the editing keys of its input
// line (docs/keys.md), in the UI's key names. A plugin cannot take them.
var ReservedKeys = map[string]bool{
	"enter": true, "alt+enter": true, "shift+enter": true, "ctrl+j": true,
	"up": true, "down": true, "left": true, "right": true, "home": true, "end": true,
	"tab": true, "shift+tab": true, "esc": true, "backspace": true, "delete": true,
	"ctrl+c": true, "ctrl+d": true, "ctrl+o": true, "ctrl+g": true,
	"ctrl+a": true, "ctrl+e": true, "ctrl+u": true, "ctrl+w": true, "ctrl+k": true,
	"alt+left": true, "alt+right": true, "alt+backspace": true, "shift+up": true, "shift+down": true,
	"ctrl+left": true, "ctrl+right": true, "pgup": true, "pgdown": true, " ": true,
}

// KeyName converts SynapsCLI's key notation to the UI's key name: C-,
// S- and A- modifiers joined by '-', then one character (lower-cased),
// F1–F12, Space, Tab, Enter, Esc, Backspace/BS, Delete/Del, Home, End,
// PageUp/PgUp, PageDown/PgDn, Up, Down, Left, Right.
func KeyName(notation string) (string, error) {
	parts := strings.Split(notation, "-")
	// "C--" is ctrl and '-': a trailing empty part is the '-' key.
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = append(parts[:len(parts)-2], "-")
	}
	key := parts[len(parts)-1]
	var ctrl, alt, shift bool
	for _, m := range parts[:len(parts)-1] {
		switch m {
		case "C":
			ctrl = true
		case "A":
			alt = true
		case "S":
			shift = true
		default:
			return "", fmt.Errorf("unknown modifier %q (use C-, A-, S-)", m)
		}
	}
	named := map[string]string{
		"space": " ", "tab": "tab", "enter": "enter", "esc": "esc", "backspace": "backspace", "bs": "backspace",
		"delete": "delete", "del": "delete", "home": "home", "end": "end", "pageup": "pgup", "pgup": "pgup",
		"pagedown": "pgdown", "pgdn": "pgdown", "up": "up", "down": "down", "left": "left", "right": "right",
	}
	for i := 1; i <= 12; i++ {
		named[fmt.Sprintf("f%d", i)] = fmt.Sprintf("f%d", i)
	}
	var name string
	if n, ok := named[strings.ToLower(key)]; ok && utf8.RuneCountInString(key) > 1 {
		name = n
	} else if utf8.RuneCountInString(key) == 1 {
		name = strings.ToLower(key)
		if !ctrl && !alt {
			return "", fmt.Errorf("a plain character %q would be typed into the input; add C- or A-", key)
		}
	} else {
		return "", fmt.Errorf("unknown key %q", key)
	}
	prefix := ""
	if ctrl {
		prefix += "ctrl+"
	}
	if alt {
		prefix += "alt+"
	}
	if shift {
		prefix += "shift+"
	}
	return prefix + name, nil
}

// bindKey decides whether a plugin's keybind is bound.
func (a *App) bindKey(id, dir string, k plugin.Keybind) KeyBinding {
	b := KeyBinding{Plugin: id, Dir: dir, Keybind: k}
	name, err := KeyName(k.Key)
	switch {
	case err != nil:
		b.Refused = "invalid notation: " + err.Error()
	case ReservedKeys[name]:
		b.Refused = "conflicts with synaps's own " + name
	default:
		for _, o := range a.Keys {
			if o.Refused == "" && o.Name() == name {
				b.Refused = "already bound by plugin " + o.Plugin
			}
		}
	}
	return b
}

// Name is the binding's key in the UI's key names ("" when invalid).
func (k KeyBinding) Name() string {
	n, _ := KeyName(k.Key)
	return n
}

// KeyAction is what a bound key does, for the UI: a slash line to run,
// or text to put in the input (neither: a run_script, RunKeyScript).
func (k KeyBinding) KeyAction() (slash, text string) {
	switch k.Action {
	case "slash_command":
		return "/" + strings.TrimPrefix(k.Command, "/"), ""
	case "load_skill":
		return "", fmt.Sprintf("Use the skill %q (load_skill loads it). ", k.Skill)
	case "inject_prompt":
		return "", k.Prompt
	}
	return "", ""
}

// RunKeyScript runs a run_script keybind's script with bash in its
// plugin's directory and returns its output.
func (a *App) RunKeyScript(ctx context.Context, k KeyBinding) (string, error) {
	cmd := exec.CommandContext(ctx, "bash", k.Script)
	cmd.Dir = k.Dir
	cmd.Env = append(append([]string(nil), a.env...), "SYNAPS_PLUGIN_ID="+k.Plugin, "SYNAPS_PLUGIN_ROOT="+k.Dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	said, err := runUnder(cmd, a.pluginPolicy(k.Plugin, k.Dir, k.Sandbox), out.String)
	for _, l := range said {
		out.WriteString(l + "\n")
	}
	if err != nil {
		return out.String(), fmt.Errorf("plugin %s key %s: script %s: %v", k.Plugin, k.Key, k.Script, err)
	}
	return out.String(), nil
}

// KeyBindings are the plugins' keybinds and sidecar toggle keys, as the
// TUI binds them (a copy: a toggle key can be rebound while it runs).
func (a *App) KeyBindings() []KeyBinding {
	a.keysMu.Lock()
	defer a.keysMu.Unlock()
	return slices.Clone(a.Keys)
}

// bindToggleKey (re)binds plugin p's sidecar toggle key: key, else the
// one in its config file, else the default. ok is false when p has no
// lifecycle word.
func (a *App) bindToggleKey(p *plugin.Plugin, key string) (KeyBinding, bool) {
	sc := p.Manifest.Sidecar
	if sc == nil || sc.Lifecycle == "" {
		return KeyBinding{}, false
	}
	if key == "" {
		if f, err := config.Load(filepath.Join(p.Dir, "config")); err == nil {
			key, _ = f.Get(ToggleKeyField)
		}
	}
	if key == "" {
		key = ToggleKeys[0]
	}
	a.keysMu.Lock()
	defer a.keysMu.Unlock()
	a.Keys = slices.DeleteFunc(a.Keys, func(k KeyBinding) bool { return k.Plugin == p.ID && k.toggle })
	kb := a.bindKey(p.ID, p.Dir, plugin.Keybind{Key: key, Action: "slash_command", Command: sc.Lifecycle,
		Description: "toggle " + cmpOr(sc.DisplayName, sc.Lifecycle) + " (sidecar)"})
	kb.toggle = true
	a.Keys = append(a.Keys, kb)
	return kb, true
}
