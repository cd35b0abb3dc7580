package extension

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"

	"github.com/synaps-cli/synaps/internal/config"
)

// baseEnv are the variables every extension inherits from synaps. Anything
// else — API keys above all — reaches an extension only when its manifest
// names it in extension.env.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "XDG_RUNTIME_DIR"}

// childEnv builds the scrubbed environment of a plugin's process.
func childEnv(getenv func(string) string, p *plugin.Plugin, baseDir string) []string {
	vars := map[string]string{}
	names := append(append([]string(nil), baseEnv...), p.Manifest.Extension.Env...)
	for _, k := range names {
		if v := getenv(k); v != "" {
			vars[k] = v
		}
	}
	vars["SYNAPS_PLUGIN_ID"] = p.ID
	vars["SYNAPS_PLUGIN_ROOT"] = p.Dir
	vars["SYNAPS_BASE_DIR"] = baseDir
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}

// envLookup turns a KEY=VALUE list into a getenv function.
func envLookup(env []string) func(string) string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

// ConfigEnvName is the environment variable that sets a plugin's config key
// first of all: SYNAPS_EXTENSION_<ID>__<KEY>, id and key upper-cased with
// every character outside [A-Z0-9] turned into '_', and two underscores
// between them. The double underscore keeps plugins apart that the
// SynapsCLI spelling (LegacyConfigEnvName) confuses: plugin deploy's key
// prod_token is SYNAPS_EXTENSION_DEPLOY__PROD_TOKEN, plugin deploy-prod's
// key token SYNAPS_EXTENSION_DEPLOY_PROD__TOKEN.
func ConfigEnvName(pluginID, key string) string {
	return "SYNAPS_EXTENSION_" + envWord(pluginID) + "__" + envWord(key)
}

// LegacyConfigEnvName is the SynapsCLI spelling, SYNAPS_EXTENSION_<ID>_<KEY>
// with one underscore. It is read after ConfigEnvName, and only when no
// other plugin's key has the same spelling.
func LegacyConfigEnvName(pluginID, key string) string {
	return "SYNAPS_EXTENSION_" + envWord(pluginID) + "_" + envWord(key)
}

func envWord(s string) string {
	b := []byte(strings.ToUpper(s))
	for i, c := range b {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// envOwners maps a config variable name (either spelling) to the plugin
// keys it would set, as "<plugin id>'s key <key>", over every discovered
// plugin with config entries. Two owners make a name ambiguous: a value
// set for one would reach the other.
type envOwners map[string][]string

func configEnvOwners(plugins []*plugin.Plugin) envOwners {
	owners := envOwners{}
	for _, p := range plugins {
		if p.Manifest == nil || p.Manifest.Extension == nil {
			continue
		}
		seen := map[string]bool{}
		for _, e := range p.Manifest.Extension.Config {
			owner := fmt.Sprintf("plugin %s's key %q", p.ID, e.Key)
			for _, name := range []string{ConfigEnvName(p.ID, e.Key), LegacyConfigEnvName(p.ID, e.Key)} {
				if !seen[name] {
					seen[name] = true
					owners[name] = append(owners[name], owner)
				}
			}
		}
	}
	return owners
}

// others lists the owners of name other than owner.
func (o envOwners) others(name, owner string) []string {
	var out []string
	for _, x := range o[name] {
		if x != owner {
			out = append(out, x)
		}
	}
	return out
}

// resolveConfig computes the config object sent in initialize. Each key
// takes the first value found in this order: SYNAPS_EXTENSION_<ID>__<KEY>;
// SYNAPS_EXTENSION_<ID>_<KEY> unless another plugin's key has that name too;
// the variable named by secret_env; plugins/<id>/config; the global
// config's extension.<id>.<key>; the manifest default. A required key with
// no value is a load error that lists every place the user could set it.
// owners (nil: this plugin alone) finds names shared with other plugins: a
// shared ConfigEnvName is a load error naming both plugins, a shared legacy
// name is not read (a warning says so when it is set).
func resolveConfig(getenv func(string) string, global *config.File, p *plugin.Plugin, owners envOwners) (map[string]any, []string, error) {
	entries := p.Manifest.Extension.Config
	out := make(map[string]any, len(entries))
	if len(entries) == 0 {
		return out, nil, nil
	}
	pluginFile, err := config.Load(filepath.Join(p.Dir, "config"))
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	for _, e := range entries {
		envName := ConfigEnvName(p.ID, e.Key)
		legacyName := LegacyConfigEnvName(p.ID, e.Key)
		self := fmt.Sprintf("plugin %s's key %q", p.ID, e.Key)
		if other := owners.others(envName, self); len(other) > 0 {
			return nil, nil, fmt.Errorf("config %q: its environment variable %s is also the one of %s, so a value meant for one would reach the other; rename one of the plugin directories so that their names differ in more than punctuation",
				e.Key, envName, strings.Join(other, " and "))
		}
		legacyShared := owners.others(legacyName, self)
		globalKey := "extension." + p.ID + "." + e.Key
		var (
			raw    string
			source string
			found  bool
		)
		if v, ok := lookupEnv(getenv, envName); ok {
			raw, source, found = v, "environment variable "+envName, true
		} else if v, ok := lookupEnv(getenv, legacyName); ok && len(legacyShared) == 0 {
			raw, source, found = v, "environment variable "+legacyName, true
		} else if v, ok := lookupEnv(getenv, e.SecretEnv); e.SecretEnv != "" && ok {
			raw, source, found = v, "environment variable "+e.SecretEnv, true
		} else if v, ok := pluginFile.Get(e.Key); ok {
			raw, source, found = v, pluginFile.Path, true
		} else if v, ok := global.Get(globalKey); ok {
			raw, source, found = v, "global config key "+globalKey, true
		}
		if _, set := lookupEnv(getenv, legacyName); set && len(legacyShared) > 0 {
			warnings = append(warnings, fmt.Sprintf("config %q: environment variable %s is not read, because it is also the name of %s; set %s instead",
				e.Key, legacyName, strings.Join(legacyShared, " and "), envName))
		}
		if found {
			v, err := typedValue(e.Type, raw)
			if err != nil {
				return nil, nil, fmt.Errorf("config %q from %s: %v", e.Key, source, err)
			}
			out[e.Key] = v
			continue
		}
		if len(e.Default) > 0 {
			var v any
			if err := json.Unmarshal(e.Default, &v); err == nil {
				out[e.Key] = v
				continue
			}
		}
		if e.Required {
			where := []string{"environment variable " + envName}
			if len(legacyShared) == 0 {
				where = append(where, "environment variable "+legacyName)
			}
			if e.SecretEnv != "" {
				where = append(where, "environment variable "+e.SecretEnv)
			}
			where = append(where, filepath.Join(p.Dir, "config")+" (`"+e.Key+" = …`)", "the synaps config (`"+globalKey+" = …`)")
			return nil, warnings, fmt.Errorf("config %q is required but not set; set it in one of: %s", e.Key, strings.Join(where, ", "))
		}
	}
	return out, warnings, nil
}

func lookupEnv(getenv func(string) string, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	v := getenv(name)
	return v, v != ""
}

// typedValue converts a config string to the declared type.
func typedValue(typ, raw string) (any, error) {
	switch typ {
	case "number":
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", raw)
		}
		return f, nil
	case "integer":
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", raw)
		}
		return n, nil
	case "boolean":
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, fmt.Errorf("%q is not a boolean (use true or false)", raw)
		}
		return b, nil
	default:
		return raw, nil
	}
}

// osGetenv is the default getenv.
var osGetenv = os.Getenv
