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

// PluginSettings lists p's settings fields with their values.
func PluginSettings(p *plugin.Plugin) []SettingValue {
	if p.Manifest == nil || len(p.Manifest.Settings) == 0 {
		return nil
	}
	file, _ := config.Load(extension.PluginConfigFile(p))
	var out []SettingValue
	for _, c := range p.Manifest.Settings {
		for _, f := range c.Fields {
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

// slashSettings is /settings [ID [KEY [VALUE|KEYNAME]]]: list every
// plugin's settings; set one; for a custom (or picker) field, open the
// extension's editor, send it a key (Up, Down, Enter, Esc, Char(x)…),
// and commit what it chose.
func (a *App) slashSettings(ctx context.Context, args []string) (SlashResult, error) {
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{
		BaseDir: a.BaseDir, ProjectDir: a.WorkDir, TrustProject: a.opts.TrustProject,
		Disabled: a.Config.List("disabled_plugins"),
	})
	var vals []SettingValue
	var target *plugin.Plugin
	for _, p := range plugins {
		if p.Err != nil || p.Disabled || p.Untrusted {
			continue
		}
		vals = append(vals, PluginSettings(p)...)
		if len(args) > 0 && p.ID == args[0] {
			target = p
		}
	}
	if len(args) == 0 {
		if len(vals) == 0 {
			return SlashResult{Output: "no plugin has settings\n"}, nil
		}
		return SlashResult{Output: FormatSettings(vals) + "/settings ID KEY VALUE sets one (a custom field: /settings ID KEY opens its editor)\n"}, nil
	}
	if target == nil {
		return SlashResult{}, fmt.Errorf("/settings: no plugin %q with settings; /settings lists them", args[0])
	}
	if len(args) == 1 {
		return SlashResult{Output: FormatSettings(PluginSettings(target))}, nil
	}
	f := target.Manifest.SettingsField(args[1])
	if f == nil {
		return SlashResult{}, fmt.Errorf("/settings: plugin %s has no setting %q; /settings %s lists them", target.ID, args[1], target.ID)
	}
	if f.Editor == "custom" || (f.Editor == "picker" && len(args) == 2) {
		return a.editSetting(ctx, target, f, args[2:])
	}
	if len(args) < 3 {
		return SlashResult{}, fmt.Errorf("usage: /settings %s %s VALUE", target.ID, f.Key)
	}
	value := strings.Join(args[2:], " ")
	file, err := extension.SetConfig(target, f.Key, value, true)
	if err != nil {
		return SlashResult{}, fmt.Errorf("/settings: %w", err)
	}
	return SlashResult{Output: fmt.Sprintf("set %s = %s in %s\n", f.Key, value, file)}, nil
}

// editSetting drives a custom editor: with no key it opens the editor and
// shows its rows; with a key name it sends settings.editor.key and shows
// the new rows; a commit (Enter on most editors) writes the chosen value.
func (a *App) editSetting(ctx context.Context, p *plugin.Plugin, f *plugin.SettingsField, keys []string) (SlashResult, error) {
	if a.Host == nil {
		return SlashResult{}, fmt.Errorf("/settings: the %s editor of %s is its extension's, and extensions are off", f.Key, p.ID)
	}
	cat := ""
	for _, c := range p.Manifest.Settings {
		for _, x := range c.Fields {
			if x.Key == f.Key {
				cat = c.ID
			}
		}
	}
	var (
		ed  extension.EditorState
		err error
	)
	if len(keys) == 0 {
		ed, err = a.Host.SettingsEditor(ctx, p.ID, cat, f.Key, "")
	} else {
		ed, err = a.Host.SettingsEditor(ctx, p.ID, cat, f.Key, keys[0])
	}
	if err != nil {
		return SlashResult{}, fmt.Errorf("/settings: %w", err)
	}
	var b strings.Builder
	for i, r := range ed.Rows {
		mark := "  "
		if ed.Cursor != nil && *ed.Cursor == i {
			mark = "> "
		}
		if r.Marker != "" {
			mark += r.Marker + " "
		}
		b.WriteString(mark + r.Label + "\n")
	}
	if ed.Footer != "" {
		b.WriteString(ed.Footer + "\n")
	}
	if ed.Value != nil {
		file, err := extension.SetConfig(p, ed.Key, *ed.Value, true)
		if err != nil {
			return SlashResult{}, fmt.Errorf("/settings: %w", err)
		}
		fmt.Fprintf(&b, "set %s = %s in %s\n", ed.Key, *ed.Value, file)
	} else if !ed.Closed {
		fmt.Fprintf(&b, "(/settings %s %s KEY sends a key: Up, Down, Enter, Esc, Char(x))\n", p.ID, f.Key)
	}
	return SlashResult{Output: b.String()}, nil
}
