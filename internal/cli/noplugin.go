package cli

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/spelling"
)

// noPlugin is the error of a command given a plugin id that none of the
// installed plugins (ids) has, in dir: a misspelt id gets the nearest one.
func noPlugin(id, dir string, ids []string) error {
	if near := spelling.Nearest(id, ids, 2); near != "" {
		return fmt.Errorf("no plugin %q in %s; did you mean %s? (`synaps extensions list` shows the installed ones)", id, dir, near)
	}
	return fmt.Errorf("no plugin %q in %s; `synaps extensions list` shows the installed ones", id, dir)
}

// idsOf are the plugins' ids.
func idsOf(plugins []*plugin.Plugin) []string {
	ids := make([]string, len(plugins))
	for i, p := range plugins {
		ids[i] = p.ID
	}
	return ids
}

// statusIDs are the statuses' plugin ids.
func statusIDs(sts []extension.Status) []string {
	ids := make([]string, len(sts))
	for i, s := range sts {
		ids[i] = s.ID
	}
	return ids
}
