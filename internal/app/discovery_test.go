package app

import (
	"testing"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/plugin"
	"path/filepath"
)

// TestOpenDiscoversPluginsOnce: a session's start discovers the plugins
// once, however many parts read them (host, skills, commands, MCP
// sources, the bash tool's PATH), with and without plugins.verify =
// strict and in either start mode; a reload discovers again.
func TestOpenDiscoversPluginsOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string
	}{
		{"default", ""},
		{"strict", "plugins.verify = strict\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, work := t.TempDir(), t.TempDir()
			if tc.config != "" {
				write(t, filepath.Join(base, "config"), tc.config)
			}
			exttest.Plugin(t, base, "one", nil, exttest.Spec{})
			exttest.Plugin(t, base, "two", nil, exttest.Spec{})
			before := plugin.Discoveries()
			a := open(t, base, work, `{"text":"ok"}`+"\n")
			if got := plugin.Discoveries() - before; got != 1 {
				t.Errorf("Open discovered the plugins %d times, want 1", got)
			}
			if n := len(a.Statuses()); n != 2 {
				t.Errorf("statuses = %d, want 2", n)
			}
			before = plugin.Discoveries()
			if err := a.Reload(t.Context()); err != nil {
				t.Fatal(err)
			}
			if got := plugin.Discoveries() - before; got < 1 {
				t.Errorf("Reload discovered %d times, want a fresh discovery", got)
			}
		})
	}
}
