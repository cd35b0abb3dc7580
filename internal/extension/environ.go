package extension

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
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

func lookupEnv(getenv func(string) string, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	v := getenv(name)
	return v, v != ""
}

// osGetenv is the default getenv.
var osGetenv = os.Getenv
