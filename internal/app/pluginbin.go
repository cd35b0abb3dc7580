package app

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// Claude Code puts an enabled plugin's bin/ directory on the Bash tool's
// PATH, so a plugin ships commands the model (and its commands' !`…`
// lines) can call by name. synaps does the same for the bash tool: the
// bin/ of every loaded, enabled, trusted plugin, before the inherited
// PATH, in plugin id order. Hooks and extensions keep the plain PATH.

// bashEnv is env with the plugins' bin directories ahead on PATH; env
// itself is not changed (hooks share it).
func (a *App) bashEnv(env []string) []string {
	if a.opts.NoExtensions {
		return env
	}
	return withPluginBins(env, a.discover())
}

// withPluginBins prepends the bin/ directories of plugins that load to
// PATH in env.
func withPluginBins(env []string, plugins []*plugin.Plugin) []string {
	var bins []string
	for _, p := range plugins {
		if p.Err != nil || p.Disabled || p.Untrusted {
			continue
		}
		bin := filepath.Join(p.Dir, "bin")
		if info, err := os.Stat(bin); err == nil && info.IsDir() {
			bins = append(bins, bin)
		}
	}
	if len(bins) == 0 {
		return env
	}
	out := make([]string, 0, len(env)+1)
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
			continue
		}
		out = append(out, kv)
	}
	full := strings.Join(bins, string(os.PathListSeparator))
	if path != "" {
		full += string(os.PathListSeparator) + path
	}
	return append(out, "PATH="+full)
}
