package extension

// Extension config: resolving each declared key (initialize params.config,
// config.get, `synaps extensions config`), checking a value against its
// entry's type, and writing it to the plugin's own config file.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// ConfigValue is one config key as resolved for a plugin.
type ConfigValue struct {
	Key string
	// Value is what initialize carries: converted to the entry's type for
	// a value from the environment or a file, a default's own JSON value.
	// Nil when the key is unset.
	Value any
	// Source says where the value came from: "environment variable X",
	// the plugin config file's path, "global config key extension.<id>.<k>",
	// "secret_env X", "default", "host (project root)"; "" when unset.
	Source string
	// Secret: the value came from the entry's secret_env. Listings mask it.
	Secret bool
	// Err says why the key has no usable value (ConfigValues only): a
	// value that does not fit its type, a variable shared by two plugins.
	Err string
	// Entry is the declaration; nil for a key the manifest does not
	// declare (config.get reads those from the plugin config file).
	Entry *plugin.ConfigEntry
}

// String is the value as text, the form config.get returns and config
// files hold: a string as it is, anything else as its JSON.
func (v ConfigValue) String() string {
	switch x := v.Value.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, _ := json.Marshal(v.Value)
	return string(b)
}

// configSources are the places a key's value may come from.
type configSources struct {
	getenv func(string) string
	global *config.File // the synaps config: extension.<id>.<key>
	file   *config.File // plugins/<id>/config
	// projectDir is the project synaps runs in, for host_context
	// "project_root".
	projectDir string
	// owners finds environment variable names shared with other plugins
	// (nil: this plugin alone).
	owners envOwners
}

// PluginConfigFile is the plugin's own config file, where config.set and
// `synaps extensions config ID KEY VALUE` write.
func PluginConfigFile(p *plugin.Plugin) string { return filepath.Join(p.Dir, "config") }

// resolveConfig computes the config object sent in initialize, as
// resolveEntry resolves each declared key. A required key with no value
// is a load error that lists every place the user could set it.
func resolveConfig(src configSources, p *plugin.Plugin) (map[string]any, []string, error) {
	entries := p.Manifest.Extension.Config
	out := make(map[string]any, len(entries))
	if len(entries) == 0 {
		return out, nil, nil
	}
	if src.file == nil {
		f, err := config.Load(PluginConfigFile(p))
		if err != nil {
			return nil, nil, err
		}
		src.file = f
	}
	var warnings []string
	for i := range entries {
		v, warns, err := resolveEntry(src, p, &entries[i])
		warnings = append(warnings, warns...)
		if err != nil {
			return nil, warnings, err
		}
		if v.Source != "" {
			out[v.Key] = v.Value
		}
	}
	return out, warnings, nil
}

// resolveEntry resolves one declared key. It takes the first value found,
// in SynapsCLI's order with synaps's additions:
//
//  1. the environment: SYNAPS_EXTENSION_<ID>__<KEY>, then SynapsCLI's
//     SYNAPS_EXTENSION_<ID>_<KEY> unless another plugin's key has that
//     name too (a warning says so when it is set);
//  2. the plugin's config file, plugins/<id>/config (where config.set and
//     `synaps extensions config` write);
//  3. the synaps config's extension.<id>.<key>;
//  4. the environment variable named by secret_env;
//  5. the manifest default.
//
// host_context entries take their value from the host only. A value
// from the environment or a file is converted to the entry's type; one
// that does not convert is an error naming where it came from.
func resolveEntry(src configSources, p *plugin.Plugin, e *plugin.ConfigEntry) (ConfigValue, []string, error) {
	v := ConfigValue{Key: e.Key, Entry: e}
	if e.HostContext != "" {
		if e.HostContext == "project_root" && src.projectDir != "" {
			v.Value, v.Source = src.projectDir, "host (project root)"
		}
		return v, nil, nil
	}
	envName := ConfigEnvName(p.ID, e.Key)
	legacyName := LegacyConfigEnvName(p.ID, e.Key)
	self := fmt.Sprintf("plugin %s's key %q", p.ID, e.Key)
	if other := src.owners.others(envName, self); len(other) > 0 {
		return v, nil, fmt.Errorf("config %q: its environment variable %s is also the one of %s, so a value meant for one would reach the other; rename one of the plugin directories so that their names differ in more than punctuation",
			e.Key, envName, strings.Join(other, " and "))
	}
	legacyShared := src.owners.others(legacyName, self)
	globalKey := "extension." + p.ID + "." + e.Key
	var warnings []string
	if _, set := lookupEnv(src.getenv, legacyName); set && len(legacyShared) > 0 {
		warnings = append(warnings, fmt.Sprintf("config %q: environment variable %s is not read, because it is also the name of %s; set %s instead",
			e.Key, legacyName, strings.Join(legacyShared, " and "), envName))
	}
	var raw string
	if x, ok := lookupEnv(src.getenv, envName); ok {
		raw, v.Source = x, "environment variable "+envName
	} else if x, ok := lookupEnv(src.getenv, legacyName); ok && len(legacyShared) == 0 {
		raw, v.Source = x, "environment variable "+legacyName
	} else if x, ok := src.file.Get(e.Key); ok {
		raw, v.Source = x, src.file.Path
	} else if x, ok := src.global.Get(globalKey); ok {
		raw, v.Source = x, "global config key "+globalKey
	} else if x, ok := lookupEnv(src.getenv, e.SecretEnv); e.SecretEnv != "" && ok {
		raw, v.Source, v.Secret = x, "secret_env "+e.SecretEnv, true
	}
	if v.Source != "" {
		typed, err := TypedConfigValue(e.Type, raw)
		if err != nil {
			return v, warnings, fmt.Errorf("config %q from %s: %v", e.Key, v.Source, err)
		}
		v.Value = typed
		return v, warnings, nil
	}
	if len(e.Default) > 0 {
		var x any
		if err := json.Unmarshal(e.Default, &x); err == nil {
			v.Value, v.Source = x, "default"
			return v, warnings, nil
		}
	}
	if e.Required {
		where := []string{"environment variable " + envName}
		if len(legacyShared) == 0 {
			where = append(where, "environment variable "+legacyName)
		}
		where = append(where, PluginConfigFile(p)+" (`"+e.Key+" = …`, or `synaps extensions config "+p.ID+" "+e.Key+" VALUE`)", "the synaps config (`"+globalKey+" = …`)")
		if e.SecretEnv != "" {
			where = append(where, "environment variable "+e.SecretEnv)
		}
		return v, warnings, fmt.Errorf("config %q is required but not set; set it in one of: %s", e.Key, strings.Join(where, ", "))
	}
	return v, warnings, nil
}

// TypedConfigValue converts a config string to the declared type:
// "number" a float, "integer" an integer, "bool"/"boolean" true or false
// (also 1/0, yes/no, on/off), anything else the string itself.
func TypedConfigValue(typ, raw string) (any, error) {
	switch typ {
	case "number":
		f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", raw)
		}
		return f, nil
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", raw)
		}
		return n, nil
	case "boolean", "bool":
		switch strings.ToLower(strings.TrimSpace(raw)) {
		case "true", "1", "yes", "on":
			return true, nil
		case "false", "0", "no", "off":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a boolean (use true or false)", raw)
	default:
		return raw, nil
	}
}

// ConfigValues resolves every declared key of p as a session would, for
// `synaps extensions config`. Keys that only the plugin config file holds
// follow, with no entry. A key whose value does not convert is listed
// with the error (Err), so the user sees what to fix.
func ConfigValues(p *plugin.Plugin, getenv func(string) string, global *config.File, projectDir string) ([]ConfigValue, error) {
	if p.Manifest == nil || p.Manifest.Extension == nil {
		return nil, fmt.Errorf("plugin %s has no extension, so it has no config", p.ID)
	}
	file, err := config.Load(PluginConfigFile(p))
	if err != nil {
		return nil, err
	}
	src := configSources{getenv: getenv, global: global, file: file, projectDir: projectDir}
	var out []ConfigValue
	declared := map[string]bool{}
	for i := range p.Manifest.Extension.Config {
		e := &p.Manifest.Extension.Config[i]
		declared[e.Key] = true
		v, _, err := resolveEntry(src, p, e)
		if err != nil {
			v.Value, v.Source, v.Err = nil, "", err.Error()
		}
		out = append(out, v)
	}
	for _, k := range file.Keys() {
		if !declared[k] {
			x, _ := file.Get(k)
			out = append(out, ConfigValue{Key: k, Value: x, Source: file.Path})
		}
	}
	return out, nil
}

// SetConfig checks value against key's entry and writes it to the plugin
// config file (an empty value removes the key). A key the manifest does
// not declare is refused, with the declared keys in the message, unless
// undeclared is true (config.set from the extension itself may keep its
// own keys there, as SynapsCLI lets it). It returns the file written.
func SetConfig(p *plugin.Plugin, key, value string, undeclared bool) (string, error) {
	if err := CheckConfigKey(key); err != nil {
		return "", err
	}
	if p.Manifest == nil || (p.Manifest.Extension == nil && len(p.Manifest.Settings) == 0) {
		return "", fmt.Errorf("plugin %s has no extension and no settings, so it has no config", p.ID)
	}
	var entry *plugin.ConfigEntry
	var keys []string
	if p.Manifest.Extension != nil {
		for i := range p.Manifest.Extension.Config {
			e := &p.Manifest.Extension.Config[i]
			keys = append(keys, e.Key)
			if e.Key == key {
				entry = e
			}
		}
	}
	for _, c := range p.Manifest.Settings {
		for _, f := range c.Fields {
			if !slices.Contains(keys, f.Key) {
				keys = append(keys, f.Key)
			}
		}
	}
	field := p.Manifest.SettingsField(key)
	if field != nil && value != "" {
		if err := field.Check(value); err != nil {
			return "", fmt.Errorf("plugin %s: %v", p.ID, err)
		}
	}
	if entry == nil && field == nil && !undeclared {
		known := "it declares none"
		if len(keys) > 0 {
			known = "it declares " + strings.Join(keys, ", ")
		}
		return "", fmt.Errorf("plugin %s has no config key %q (%s in %s)", p.ID, key, known, p.ManifestFile())
	}
	if entry != nil && value != "" {
		if entry.HostContext != "" {
			return "", fmt.Errorf("config %q of plugin %s comes from synaps (host_context %q) and cannot be set", key, p.ID, entry.HostContext)
		}
		if _, err := TypedConfigValue(entry.Type, value); err != nil {
			return "", fmt.Errorf("config %q of plugin %s is of type %s: %v", key, p.ID, entry.Type, err)
		}
	}
	file := PluginConfigFile(p)
	if err := config.Set(file, key, value); err != nil {
		return "", err
	}
	return file, nil
}

// CheckConfigKey refuses keys SynapsCLI refuses: empty, or holding '.',
// '/' or whitespace (and '=' or a line break, which a key = value file
// cannot hold).
func CheckConfigKey(key string) error {
	if key == "" || strings.ContainsAny(key, "./= \t\r\n") {
		return fmt.Errorf("config key %q is not valid: it must be non-empty, without '.', '/', '=' or whitespace", key)
	}
	return nil
}
