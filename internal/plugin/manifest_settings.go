package plugin

// SynapsCLI's "settings" (categories of fields the user edits, stored in
// the plugin's config file) and "provides.sidecar" (a helper process
// speaking line-delimited JSON, internal/sidecar). As with commands, a
// bad entry is a warning and the rest loads.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SettingsEditors are the editors a settings field may use.
var SettingsEditors = []string{"text", "cycler", "picker", "custom"}

// SettingsCategory is one category of a plugin's settings.
type SettingsCategory struct {
	ID, Label string
	Fields    []SettingsField
}

// SettingsField is one setting: a key of the plugin's config file and how
// it is edited. text takes any value (a number when Numeric); cycler one
// of Options; picker and custom are edited by the extension
// (settings.editor.*).
type SettingsField struct {
	Key, Label, Editor string
	Options            []string
	Help               string
	Default            json.RawMessage
	Numeric            bool
}

// Sidecar is provides.sidecar: a helper process of the plugin.
type Sidecar struct {
	// Command is relative to the plugin root unless absolute.
	Command         string
	Setup           string
	ProtocolVersion int
	// ModelPath is model.default_path ("~/" expanded by the runner).
	ModelPath string
	// Lifecycle is the word that toggles it (/<word>), "" for none.
	Lifecycle, DisplayName, SettingsCategory string
	Importance                               int
}

// parseProvided reads "settings" (alias "category") and
// "provides.sidecar".
func (p *manifestParser) parseProvided(m *Manifest, top *jsonObject) {
	key := "settings"
	v, ok := top.get(key)
	if ok {
		p.settings(m, v)
	}
	if v, ok := top.get("provides"); ok {
		obj, ok := decodeObject(v)
		if !ok {
			p.warn("provides", fmt.Sprintf("must be an object, got %s; ignored", kindOf(v)))
			return
		}
		if v, ok := obj.get("sidecar"); ok {
			m.Sidecar = p.sidecar(v)
		}
	}
}

func (p *manifestParser) settings(m *Manifest, v json.RawMessage) {
	obj, ok := decodeObject(v)
	if !ok {
		p.warn("settings", fmt.Sprintf(`must be an object {"categories": [...]}, got %s; ignored`, kindOf(v)))
		return
	}
	ck := "categories"
	cats, ok := obj.get(ck)
	if !ok {
		ck = "category"
		cats, ok = obj.get(ck)
	}
	if !ok {
		return
	}
	items, ok := p.lenientArray("settings."+ck, cats, "an array of {id, label, fields} objects")
	if !ok {
		return
	}
	for i, it := range items {
		field := fmt.Sprintf("settings.%s[%d]", ck, i)
		co, ok := decodeObject(it)
		if !ok {
			p.warn(field, "a category must be an object; it is skipped")
			continue
		}
		var c SettingsCategory
		c.ID, _ = p.lenientStr(co, field, "id")
		c.Label, _ = p.lenientStr(co, field, "label")
		if c.ID == "" {
			p.warn(field, `a settings category needs an "id"; it is skipped`)
			continue
		}
		if c.Label == "" {
			c.Label = c.ID
		}
		if fv, ok := co.get("fields"); ok {
			fields, _ := p.lenientArray(field+".fields", fv, "an array of fields")
			for j, f := range fields {
				if sf, ok := p.settingsField(fmt.Sprintf("%s.fields[%d]", field, j), f); ok {
					c.Fields = append(c.Fields, sf)
				}
			}
		}
		m.Settings = append(m.Settings, c)
	}
}

func (p *manifestParser) settingsField(field string, raw json.RawMessage) (SettingsField, bool) {
	obj, ok := decodeObject(raw)
	if !ok {
		p.warn(field, "a settings field must be an object; it is skipped")
		return SettingsField{}, false
	}
	var f SettingsField
	f.Key, _ = p.lenientStr(obj, field, "key")
	f.Label, _ = p.lenientStr(obj, field, "label")
	f.Editor, _ = p.lenientStr(obj, field, "editor")
	f.Help, _ = p.lenientStr(obj, field, "help")
	f.Options = p.lenientStrings(obj, field, "options")
	f.Default, _ = obj.get("default")
	if v, ok := obj.get("numeric"); ok {
		_ = json.Unmarshal(v, &f.Numeric)
	}
	switch {
	case f.Key == "":
		p.warn(field, `a settings field needs a "key"; it is skipped`)
		return f, false
	case strings.ContainsAny(f.Key, "./ =\t\n"):
		p.warn(field+".key", fmt.Sprintf("key %q must not contain '.', '/', '=' or whitespace (it is a key of the plugin's config file); the field is skipped", f.Key))
		return f, false
	case !slices.Contains(SettingsEditors, f.Editor):
		p.warn(field+".editor", fmt.Sprintf("editor %q is not one of %s; the field is skipped", f.Editor, strings.Join(SettingsEditors, ", ")))
		return f, false
	case f.Editor == "cycler" && len(f.Options) == 0:
		p.warn(field+".options", `a cycler needs "options" to cycle through; the field is skipped`)
		return f, false
	}
	if f.Label == "" {
		f.Label = f.Key
	}
	return f, true
}

func (p *manifestParser) sidecar(v json.RawMessage) *Sidecar {
	const field = "provides.sidecar"
	obj, ok := decodeObject(v)
	if !ok {
		p.warn(field, fmt.Sprintf("must be an object, got %s; no sidecar", kindOf(v)))
		return nil
	}
	s := &Sidecar{ProtocolVersion: 1}
	s.Command, _ = p.lenientStr(obj, field, "command")
	if strings.TrimSpace(s.Command) == "" {
		p.warn(field+".command", "a sidecar needs a \"command\"; no sidecar")
		return nil
	}
	if s.Setup, ok = p.lenientStr(obj, field, "setup"); ok {
		if why := CheckPluginPath(s.Setup); why != "" {
			p.warn(field+".setup", fmt.Sprintf("setup script %q %s; ignored", s.Setup, why))
			s.Setup = ""
		}
	}
	if v, ok := obj.get("protocol_version"); ok {
		_ = json.Unmarshal(v, &s.ProtocolVersion)
	}
	if v, ok := obj.get("model"); ok {
		if mo, ok := decodeObject(v); ok {
			s.ModelPath, _ = p.lenientStr(mo, field+".model", "default_path")
		}
	}
	if v, ok := obj.get("lifecycle"); ok {
		lo, ok := decodeObject(v)
		if !ok {
			p.warn(field+".lifecycle", "must be an object; ignored")
			return s
		}
		s.Lifecycle, _ = p.lenientStr(lo, field+".lifecycle", "command")
		if s.Lifecycle == "" {
			p.warn(field+".lifecycle.command", `a lifecycle needs a "command" (the word that toggles the sidecar); ignored`)
			return s
		}
		if strings.ContainsAny(s.Lifecycle, ": /\t") {
			p.warn(field+".lifecycle.command", fmt.Sprintf("%q must be one word without ':' or '/'; ignored", s.Lifecycle))
			s.Lifecycle = ""
			return s
		}
		s.DisplayName, _ = p.lenientStr(lo, field+".lifecycle", "display_name")
		s.SettingsCategory, _ = p.lenientStr(lo, field+".lifecycle", "settings_category")
		if v, ok := lo.get("importance"); ok {
			_ = json.Unmarshal(v, &s.Importance)
			s.Importance = max(-100, min(100, s.Importance))
		}
		if s.DisplayName == "" {
			s.DisplayName = s.Lifecycle
		}
	}
	return s
}

// SettingsField finds the settings field of key, nil when none.
func (m *Manifest) SettingsField(key string) *SettingsField {
	if m == nil {
		return nil
	}
	for i := range m.Settings {
		for j := range m.Settings[i].Fields {
			if f := &m.Settings[i].Fields[j]; f.Key == key {
				return f
			}
		}
	}
	return nil
}

// Check says why value cannot be the field's value: a cycler takes one of
// its options, a numeric text field a number.
func (f *SettingsField) Check(value string) error {
	switch {
	case f.Editor == "cycler" && !slices.Contains(f.Options, value):
		return fmt.Errorf("setting %q (%s) is one of %s, not %q", f.Key, f.Label, strings.Join(f.Options, ", "), value)
	case f.Editor == "text" && f.Numeric:
		var n float64
		if _, err := fmt.Sscanf(value, "%g", &n); err != nil || strings.TrimSpace(value) != value {
			return fmt.Errorf("setting %q (%s) is a number, not %q", f.Key, f.Label, value)
		}
	}
	return nil
}
