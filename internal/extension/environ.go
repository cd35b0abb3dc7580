package extension

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
)

// baseEnv are the variables every extension inherits from synaps. Anything
// else — API keys above all — reaches an extension only when its manifest
// names it in extension.env.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "XDG_RUNTIME_DIR"}

// childEnv builds the scrubbed environment of a plugin's process.
func childEnv(getenv func(string) string, p *Plugin, baseDir string) []string {
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
// first of all: SYNAPS_EXTENSION_<ID>_<KEY>, upper-cased, with every
// character outside [A-Z0-9] turned into '_'.
func ConfigEnvName(pluginID, key string) string {
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

// resolveConfig computes the config object sent in initialize. Each key
// takes the first value found in this order: SYNAPS_EXTENSION_<ID>_<KEY>;
// the variable named by secret_env; plugins/<id>/config; the global config's
// extension.<id>.<key>; the manifest default. A required key with no value
// is a load error that lists every place the user could set it.
func resolveConfig(getenv func(string) string, global *config.File, p *Plugin) (map[string]any, error) {
	entries := p.Manifest.Extension.Config
	out := make(map[string]any, len(entries))
	if len(entries) == 0 {
		return out, nil
	}
	pluginFile, err := config.Load(filepath.Join(p.Dir, "config"))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		envName := ConfigEnvName(p.ID, e.Key)
		globalKey := "extension." + p.ID + "." + e.Key
		var (
			raw    string
			source string
			found  bool
		)
		if v, ok := lookupEnv(getenv, envName); ok {
			raw, source, found = v, "environment variable "+envName, true
		} else if v, ok := lookupEnv(getenv, e.SecretEnv); e.SecretEnv != "" && ok {
			raw, source, found = v, "environment variable "+e.SecretEnv, true
		} else if v, ok := pluginFile.Get(e.Key); ok {
			raw, source, found = v, pluginFile.Path, true
		} else if v, ok := global.Get(globalKey); ok {
			raw, source, found = v, "global config key "+globalKey, true
		}
		if found {
			v, err := typedValue(e.Type, raw)
			if err != nil {
				return nil, fmt.Errorf("config %q from %s: %v", e.Key, source, err)
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
			if e.SecretEnv != "" {
				where = append(where, "environment variable "+e.SecretEnv)
			}
			where = append(where, filepath.Join(p.Dir, "config")+" (`"+e.Key+" = …`)", "the synaps config (`"+globalKey+" = …`)")
			return nil, fmt.Errorf("config %q is required but not set; set it in one of: %s", e.Key, strings.Join(where, ", "))
		}
	}
	return out, nil
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
