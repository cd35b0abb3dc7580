package cli

import (
	"github.com/synaps-cli/synaps/internal/trust"
)

// pluginErrorsJSON is the init and result lines' plugin_errors, as Claude
// Code reports plugins that did not load: here every project item trust
// held back (a hook, command, agent, MCP server or plugin), so a script
// reading the JSON sees a skipped guard as clearly as a person reading
// stderr. Each names the item, its kind and file, why ("not trusted",
// "changed since trusted", "new since trusted") and the fix.
func pluginErrorsJSON(s *trust.State) []map[string]string {
	out := []map[string]string{}
	if s == nil {
		return out
	}
	for _, h := range s.Held {
		fix := "run `synaps trust` in the project, or pass --trust-project for one run"
		out = append(out, map[string]string{
			"name": h.Item.Name, "kind": h.Item.Kind, "id": h.Item.ID, "source": h.Item.File,
			"reason": string(h.Reason),
			"error":  h.Item.Label() + " not loaded: " + string(h.Reason) + "; " + fix,
		})
	}
	return out
}
