package mcp

import (
	"sort"
)

// PassEnv are the variables every stdio server inherits from synaps: the
// same short list extensions get (internal/extension's baseEnv; a test
// holds the two equal). Anything else — API keys above all — reaches a
// server only when its config's env names it.
var PassEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "XDG_RUNTIME_DIR"}

// ServerEnv is the environment of a stdio server (and of a plugin's
// language server, internal/lsp): PassEnv from synaps's environment, then
// the config's (already expanded) env on top.
func ServerEnv(getenv func(string) string, env map[string]string) []string {
	vars := map[string]string{}
	for _, k := range PassEnv {
		if v := getenv(k); v != "" {
			vars[k] = v
		}
	}
	for k, v := range env {
		vars[k] = v
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
