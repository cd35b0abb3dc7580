package app

// Plugin settings (a SynapsCLI manifest's "settings"): categories of
// fields whose values live in the plugin's config file. /settings lists
// them and sets one; `synaps extensions config ID` lists them too. text,
// cycler and picker fields are set directly (a cycler to one of its
// options); a custom field is edited by the extension through
// settings.editor.open/key/commit (extension.Host.SettingsEditor).

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// SettingValue is one settings field with its current value.
type SettingValue struct {
	Plugin   string
	Category plugin.SettingsCategory
	Field    plugin.SettingsField
	// Value is the config file's, else the default's ("" when neither);
	// FromDefault says it is the default.
	Value       string
	FromDefault bool
}

// ToggleKeyField is the settings field SynapsCLI adds at the top of the
// category a sidecar's lifecycle names (settings_category): the key that
// toggles the sidecar in the TUI.
const ToggleKeyField = "_lifecycle_toggle_key"

// ToggleKeys are the keys it cycles through; the first is the default.
var ToggleKeys = []string{"F8", "F2", "F12", "C-V", "C-G"}

// settingsFields are c's fields, the sidecar's toggle key first when its
// lifecycle names c.
func settingsFields(p *plugin.Plugin, c plugin.SettingsCategory) []plugin.SettingsField {
	sc := p.Manifest.Sidecar
	if sc == nil || sc.Lifecycle == "" || sc.SettingsCategory != c.ID {
		return c.Fields
	}
	toggle := plugin.SettingsField{Key: ToggleKeyField, Label: "Toggle key for " + cmpOr(sc.DisplayName, sc.Lifecycle),
		Editor: "cycler", Options: ToggleKeys, Default: json.RawMessage(`"` + ToggleKeys[0] + `"`)}
	return append([]plugin.SettingsField{toggle}, c.Fields...)
}

// settingsField finds key among p's settings, the toggle key included.
func settingsField(p *plugin.Plugin, key string) *plugin.SettingsField {
	for _, c := range p.Manifest.Settings {
		for _, f := range settingsFields(p, c) {
			if f.Key == key {
				return &f
			}
		}
	}
	return nil
}

// PluginSettings lists p's settings fields with their values.
func PluginSettings(p *plugin.Plugin) []SettingValue {
	if p.Manifest == nil || len(p.Manifest.Settings) == 0 {
		return nil
	}
	file, _ := config.Load(extension.PluginConfigFile(p))
	var out []SettingValue
	for _, c := range p.Manifest.Settings {
		for _, f := range settingsFields(p, c) {
			v := SettingValue{Plugin: p.ID, Category: c, Field: f}
			if file != nil {
				if s, ok := file.Get(f.Key); ok {
					v.Value = s
				}
			}
			if v.Value == "" && len(f.Default) > 0 {
				var s string
				if json.Unmarshal(f.Default, &s) != nil {
					s = string(f.Default)
				}
				v.Value, v.FromDefault = s, true
			}
			out = append(out, v)
		}
	}
	return out
}

// FormatSettings renders settings as a table, grouped by category.
func FormatSettings(vals []SettingValue) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	last := ""
	for _, v := range vals {
		if cat := v.Plugin + "/" + v.Category.ID; cat != last {
			if last != "" {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s — %s (plugin %s)\n", v.Category.Label, v.Category.ID, v.Plugin)
			last = cat
		}
		editor := v.Field.Editor
		switch {
		case v.Field.Editor == "cycler":
			editor += ": " + strings.Join(v.Field.Options, "|")
		case v.Field.Numeric:
			editor += " (number)"
		}
		val := v.Value
		switch {
		case val == "":
			val = "(unset)"
		case v.FromDefault:
			val += " (default)"
		}
		line := fmt.Sprintf("  %s\t%s\t%s\t%s", v.Field.Key, v.Field.Label, editor, val)
		if v.Field.Help != "" {
			line += "\t" + v.Field.Help
		}
		fmt.Fprintln(w, line)
	}
	w.Flush()
	return b.String()
}

// settingsPlugins are the session's plugins that may have settings.
func (a *App) settingsPlugins() []*plugin.Plugin {
	plugins := a.discover()
	return slices.DeleteFunc(plugins, func(p *plugin.Plugin) bool { return p.Err != nil || p.Disabled || p.Untrusted })
}

// SettingsValues lists every plugin's settings with their values.
func (a *App) SettingsValues() []SettingValue {
	var vals []SettingValue
	for _, p := range a.settingsPlugins() {
		vals = append(vals, PluginSettings(p)...)
	}
	return vals
}

// settingsTarget finds plugin id and its field key.
func (a *App) settingsTarget(id, key string) (*plugin.Plugin, *plugin.SettingsField, error) {
	for _, p := range a.settingsPlugins() {
		if p.ID != id {
			continue
		}
		if f := settingsField(p, key); f != nil {
			return p, f, nil
		}
		return p, nil, fmt.Errorf("plugin %s has no setting %q; /settings %s lists them", id, key, id)
	}
	return nil, nil, fmt.Errorf("no plugin %q with settings; /settings lists them", id)
}

// SetPluginSetting writes p's setting key (checked against its field,
// the sidecar's toggle key included); ok is false when p has no such
// setting.
func SetPluginSetting(p *plugin.Plugin, key, value string) (file string, ok bool, err error) {
	f := settingsField(p, key)
	if f == nil {
		return "", false, nil
	}
	if value != "" {
		if err := f.Check(value); err != nil {
			return "", true, fmt.Errorf("plugin %s: %v", p.ID, err)
		}
	}
	file, err = extension.SetConfig(p, key, value, true)
	return file, true, err
}

// SetSetting writes a text, cycler or picker setting (checked against
// the field) and says where.
func (a *App) SetSetting(id, key, value string) (string, error) {
	p, f, err := a.settingsTarget(id, key)
	if err != nil {
		return "", err
	}
	if value != "" {
		if err := f.Check(value); err != nil {
			return "", fmt.Errorf("plugin %s: %v", p.ID, err)
		}
	}
	file, err := extension.SetConfig(p, f.Key, value, true)
	if err != nil {
		return "", err
	}
	note := fmt.Sprintf("set %s = %s in %s", f.Key, value, file)
	if f.Key == ToggleKeyField {
		// Rebound at once, as SynapsCLI does.
		if kb, ok := a.bindToggleKey(p, value); ok && kb.Refused != "" {
			note += fmt.Sprintf(" (not bound: %s)", kb.Refused)
		}
	}
	return note, nil
}

// EditSetting drives a custom (or picker) field's editor, which its
// extension renders: key "" opens it, a key name (Up, Down, Enter, Esc,
// Char(x)) is sent to it. When the editor commits, the value is written
// and note says so.
func (a *App) EditSetting(ctx context.Context, id, key, keyName string) (ed extension.EditorState, note string, err error) {
	p, f, err := a.settingsTarget(id, key)
	if err != nil {
		return ed, "", err
	}
	if a.Host == nil {
		return ed, "", fmt.Errorf("the %s editor of %s is its extension's, and extensions are off", f.Key, p.ID)
	}
	cat := ""
	for _, c := range p.Manifest.Settings {
		for _, x := range c.Fields {
			if x.Key == f.Key {
				cat = c.ID
			}
		}
	}
	ed, err = a.Host.SettingsEditor(ctx, p.ID, cat, f.Key, keyName)
	if err != nil || ed.Value == nil {
		return ed, "", err
	}
	file, err := extension.SetConfig(p, ed.Key, *ed.Value, true)
	if err != nil {
		return ed, "", err
	}
	return ed, fmt.Sprintf("set %s = %s in %s", ed.Key, *ed.Value, file), nil
}

// EditorLines renders an editor's rows, the cursor's marked "> ".
func EditorLines(ed extension.EditorState) []string {
	var out []string
	for i, r := range ed.Rows {
		mark := "  "
		if ed.Cursor != nil && *ed.Cursor == i {
			mark = "> "
		}
		if r.Marker != "" {
			mark += r.Marker + " "
		}
		out = append(out, mark+r.Label)
	}
	if ed.Footer != "" {
		out = append(out, ed.Footer)
	}
	return out
}

// slashSettings is /settings [ID [KEY [VALUE|KEYNAME]]]: list every
// plugin's settings; set one; for a custom (or picker) field, open the
// extension's editor, send it a key (Up, Down, Enter, Esc, Char(x)…),
// and commit what it chose. (The TUI's /settings opens a screen.)
func (a *App) slashSettings(ctx context.Context, args []string) (SlashResult, error) {
	if len(args) == 0 {
		vals := a.SettingsValues()
		if len(vals) == 0 {
			return SlashResult{Output: "no plugin has settings\n"}, nil
		}
		return SlashResult{Output: FormatSettings(vals) + "/settings ID KEY VALUE sets one (a custom field: /settings ID KEY opens its editor)\n"}, nil
	}
	if len(args) == 1 {
		var vals []SettingValue
		for _, v := range a.SettingsValues() {
			if v.Plugin == args[0] {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return SlashResult{}, fmt.Errorf("/settings: no plugin %q with settings; /settings lists them", args[0])
		}
		return SlashResult{Output: FormatSettings(vals)}, nil
	}
	_, f, err := a.settingsTarget(args[0], args[1])
	if err != nil {
		return SlashResult{}, fmt.Errorf("/settings: %w", err)
	}
	if f.Editor == "custom" || (f.Editor == "picker" && len(args) == 2) {
		key := ""
		if len(args) > 2 {
			key = args[2]
		}
		ed, note, err := a.EditSetting(ctx, args[0], f.Key, key)
		if err != nil {
			return SlashResult{}, fmt.Errorf("/settings: %w", err)
		}
		out := strings.Join(EditorLines(ed), "\n")
		switch {
		case note != "":
			out += "\n" + note
		case !ed.Closed:
			out += fmt.Sprintf("\n(/settings %s %s KEY sends a key: Up, Down, Enter, Esc, Char(x))", args[0], f.Key)
		}
		return SlashResult{Output: strings.TrimLeft(out, "\n") + "\n"}, nil
	}
	if len(args) < 3 {
		return SlashResult{}, fmt.Errorf("usage: /settings %s %s VALUE", args[0], f.Key)
	}
	note, err := a.SetSetting(args[0], f.Key, strings.Join(args[2:], " "))
	if err != nil {
		return SlashResult{}, fmt.Errorf("/settings: %w", err)
	}
	return SlashResult{Output: note + "\n"}, nil
}
