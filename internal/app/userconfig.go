package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// A plugin's user options (Claude Code's plugin.json "userConfig"): the
// values a user gives a plugin — an endpoint, a token. An ordinary value
// is kept in the synaps config as extension.<id>.<key>, beside other
// plugin settings; a "sensitive" one only in plugin-secrets.json in the
// base directory, readable by the user alone (0600), never in the config
// or a session. A session hands them to the plugin's hooks and MCP
// servers as CLAUDE_PLUGIN_OPTION_<KEY> and expands ${user_config.KEY}
// in their configs. A required option with no value is a warning at the
// start of every session, naming the command that sets it.

// SecretsFile is where sensitive plugin options are kept.
func SecretsFile(base string) string { return filepath.Join(base, "plugin-secrets.json") }

// OptionValue is one option of a plugin with its value and where the
// value comes from: "config", "secrets", "default" or "" (unset).
type OptionValue struct {
	Option plugin.UserConfigOption
	Value  string
	From   string
}

// UserOptions are p's options, in the manifest's order.
func UserOptions(base string, cfg *config.File, p *plugin.Plugin) []OptionValue {
	if p == nil || p.Manifest == nil || len(p.Manifest.UserConfig) == 0 {
		return nil
	}
	secrets, _ := readSecrets(base)
	var out []OptionValue
	for _, o := range p.Manifest.UserConfig {
		v := OptionValue{Option: o}
		if o.Sensitive {
			if s, ok := secrets[p.ID][o.Key]; ok {
				v.Value, v.From = s, "secrets"
			}
		} else if cfg != nil {
			if s, ok := cfg.Get(optionConfigKey(p.ID, o.Key)); ok {
				v.Value, v.From = s, "config"
			}
		}
		if v.From == "" && o.Default != nil {
			v.Value, v.From = optionText(o.Default), "default"
		}
		out = append(out, v)
	}
	return out
}

// OptionValues are p's options that have a value, by key, as hooks and
// MCP servers get them.
func OptionValues(base string, cfg *config.File, p *plugin.Plugin) map[string]string {
	vals := UserOptions(base, cfg, p)
	if len(vals) == 0 {
		return nil
	}
	m := map[string]string{}
	for _, v := range vals {
		if v.From != "" {
			m[v.Option.Key] = v.Value
		}
	}
	return m
}

// OptionEnv is OptionValues as CLAUDE_PLUGIN_OPTION_<KEY>=value, sorted.
func OptionEnv(vals map[string]string) []string {
	var env []string
	for k, v := range vals {
		env = append(env, "CLAUDE_PLUGIN_OPTION_"+strings.ToUpper(k)+"="+v)
	}
	sort.Strings(env)
	return env
}

// MissingOptions are the warnings for p's required options that have no
// value, each naming the command that sets it.
func MissingOptions(base string, cfg *config.File, p *plugin.Plugin) []string {
	var out []string
	for _, v := range UserOptions(base, cfg, p) {
		if v.Option.Required && v.From == "" {
			title := ""
			if v.Option.Title != "" {
				title = " (" + v.Option.Title + ")"
			}
			out = append(out, fmt.Sprintf("plugin %s: option %s%s is required and not set; set it with `synaps plugins config %s %s=VALUE`", p.ID, v.Option.Key, title, p.ID, v.Option.Key))
		}
	}
	return out
}

// SetUserOption checks value against p's option key and stores it ("" removes
// it); it returns where it went.
func SetUserOption(base string, p *plugin.Plugin, key, value string) (string, error) {
	var opt *plugin.UserConfigOption
	var keys []string
	for i, o := range p.Manifest.UserConfig {
		keys = append(keys, o.Key)
		if o.Key == key {
			opt = &p.Manifest.UserConfig[i]
		}
	}
	if opt == nil {
		return "", fmt.Errorf("plugin %s has no option %q; its options are %s", p.ID, key, strings.Join(keys, ", "))
	}
	if value != "" {
		v, err := checkOption(*opt, value)
		if err != nil {
			return "", fmt.Errorf("plugin %s: option %s: %v", p.ID, key, err)
		}
		value = v
	}
	if opt.Sensitive {
		file := SecretsFile(base)
		return file, updateSecrets(file, func(s map[string]map[string]string) {
			if value == "" {
				delete(s[p.ID], key)
				if len(s[p.ID]) == 0 {
					delete(s, p.ID)
				}
				return
			}
			if s[p.ID] == nil {
				s[p.ID] = map[string]string{}
			}
			s[p.ID][key] = value
		})
	}
	file := filepath.Join(base, "config")
	return file, config.Set(file, optionConfigKey(p.ID, key), value)
}

// SetUserOptions sets KEY=VALUE pairs (from the command line) in order,
// stopping at the first that is wrong.
func SetUserOptions(base string, p *plugin.Plugin, pairs []string) ([]string, error) {
	var done []string
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return done, fmt.Errorf("%q: write KEY=VALUE (an empty VALUE removes the option)", kv)
		}
		where, err := SetUserOption(base, p, k, v)
		if err != nil {
			return done, err
		}
		done = append(done, fmt.Sprintf("%s in %s", k, where))
	}
	return done, nil
}

func optionConfigKey(id, key string) string { return "extension." + id + "." + key }

// checkOption checks value against o's type and bounds and returns it as
// kept (a path made absolute).
func checkOption(o plugin.UserConfigOption, value string) (string, error) {
	items := []string{value}
	if o.Multiple {
		items = config.SplitList(value)
	}
	for i, it := range items {
		switch o.Type {
		case "number":
			n, err := strconv.ParseFloat(it, 64)
			if err != nil {
				return "", fmt.Errorf("%q is not a number", it)
			}
			if o.Min != nil && n < *o.Min {
				return "", fmt.Errorf("%s is below the minimum %s", it, optionText(*o.Min))
			}
			if o.Max != nil && n > *o.Max {
				return "", fmt.Errorf("%s is above the maximum %s", it, optionText(*o.Max))
			}
		case "boolean":
			b, err := strconv.ParseBool(it)
			if err != nil {
				return "", fmt.Errorf("%q is not true or false", it)
			}
			items[i] = strconv.FormatBool(b)
		case "directory", "file":
			abs, err := filepath.Abs(it)
			if err != nil {
				return "", err
			}
			st, err := os.Stat(abs)
			if err != nil {
				return "", fmt.Errorf("%s: %v (give an existing %s)", it, err, o.Type)
			}
			if st.IsDir() != (o.Type == "directory") {
				return "", fmt.Errorf("%s is not a %s", it, o.Type)
			}
			items[i] = abs
		case "string":
			if o.Min != nil && float64(len(it)) < *o.Min {
				return "", fmt.Errorf("shorter than %s characters", optionText(*o.Min))
			}
			if o.Max != nil && float64(len(it)) > *o.Max {
				return "", fmt.Errorf("longer than %s characters", optionText(*o.Max))
			}
		}
	}
	return strings.Join(items, ","), nil
}

// optionText is a default or bound as text: numbers without a needless
// ".0", lists joined by commas.
func optionText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = optionText(e)
		}
		return strings.Join(parts, ",")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// readSecrets reads plugin-secrets.json: {plugin: {key: value}}.
func readSecrets(base string) (map[string]map[string]string, error) {
	s := map[string]map[string]string{}
	data, err := safefile.ReadAll(SecretsFile(base), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return map[string]map[string]string{}, fmt.Errorf("%s: not valid JSON (%v); fix or remove it and set the options again", SecretsFile(base), err)
	}
	return s, nil
}

// updateSecrets changes the secrets file: written to a private temporary
// file and renamed over the old one, so it is never readable by others,
// not even for a moment.
func updateSecrets(file string, change func(map[string]map[string]string)) error {
	base := filepath.Dir(file)
	s, err := readSecrets(base)
	if err != nil {
		return err
	}
	change(s)
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(base, 0o700); err != nil {
		return err
	}
	return config.ReplaceFile(file, append(data, '\n'), 0o600)
}

// expandOptions replaces ${user_config.KEY} in a plugin's hooks file
// (JSON text) by the option's value, JSON-escaped so the file stays
// valid; an option with no value becomes "" (a required one is warned
// of at the start).
func expandOptions(data []byte, vals map[string]string) []byte {
	const open = "${user_config."
	s := string(data)
	if !strings.Contains(s, open) {
		return data
	}
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			b.WriteString(s)
			break
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		key := s[i+len(open) : i+end]
		q, _ := json.Marshal(vals[key])
		b.WriteString(string(q[1 : len(q)-1]))
		s = s[i+end+1:]
	}
	return []byte(b.String())
}
