package mcp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpanderPluginData: a plugin's server gets ${CLAUDE_PLUGIN_ROOT}
// and ${CLAUDE_PLUGIN_DATA} in its command, args and env, as Claude Code
// expands them; a user's server does not.
func TestExpanderPluginData(t *testing.T) {
	m := &Manager{opts: Options{Getenv: func(string) string { return "" }}}
	sv := Server{Name: "s", Command: "${CLAUDE_PLUGIN_ROOT}/bin/s", Args: []string{"--db", "${CLAUDE_PLUGIN_DATA}/db"},
		PluginDir: "/p", PluginData: "/d"}
	got, err := m.expander(sv).Expand(sv)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/p/bin/s", "--db", "/d/db"}, append([]string{got.Command}, got.Args...)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
