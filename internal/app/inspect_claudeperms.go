package app

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/trust"
)

// claudePermissionNotes says which Claude Code settings files hold
// permission rules: synaps reads its own config's rules (same names and
// syntax), not these, and a user moving from Claude Code should not think
// they are in force. Each note names the file and how to bring the rules
// over.
func (a *App) claudePermissionNotes() string {
	files := []string{}
	for _, rel := range trust.SettingsFiles {
		files = append(files, filepath.Join(a.WorkDir, filepath.FromSlash(rel)))
	}
	if home := a.opts.Getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	var b strings.Builder
	for _, f := range files {
		data, err := safefile.ReadAll(f, plugin.MaxManifestSize)
		if err != nil {
			continue
		}
		var s struct {
			Permissions struct {
				Allow, Ask, Deny []string
			} `json:"permissions"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue
		}
		p := s.Permissions
		var parts []string
		for _, k := range []struct {
			kind  string
			rules []string
		}{{"deny", p.Deny}, {"ask", p.Ask}, {"allow", p.Allow}} {
			if len(k.rules) > 0 {
				parts = append(parts, k.kind+" "+strings.Join(k.rules, ", "))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "not in force: %s has Claude Code permission rules (%s); synaps reads its own config's rules, same syntax: /permissions allow|ask|deny RULE copies one\n", f, strings.Join(parts, "; "))
		}
	}
	return b.String()
}
