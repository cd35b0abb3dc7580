package plugin

import (
	"fmt"
	"slices"
	"strings"
)

// Unknown keys at the top of a manifest. Both dialects ignore them, which
// hides a slip such as writing the extension's "entry_point" and
// "permissions" beside "name" instead of inside "extension": the manifest
// then validates and lists as a plugin that runs nothing. Each unknown key
// draws a warning naming it and, where one fits, where it belongs.

// topKeys are the top-level keys a manifest may hold without a warning:
// what synaps reads (metadata, "extension", SynapsCLI's commands,
// help_entries/help, keybinds, settings, provides, the sandbox section of
// both dialects, Claude Code's hooks, component paths and lspServers) and
// what real SynapsCLI and Claude Code manifests carry for their registries
// (homepage, keywords, category, compatibility, $schema, outputStyles),
// which synaps has no use for.
var topKeys = []string{
	"name", "version", "description", "author", "license", "repository",
	"homepage", "keywords", "category", "compatibility", "$schema",
	"extension",
	"commands", "help_entries", "help", "keybinds", "settings", "provides", "sandbox",
	"hooks", "agents", "skills", "mcpServers", "outputStyles", "lspServers",
	"userConfig", "dependencies",
}

// misplacedTopKeys are keys of the "extension" object written at the top
// level, each with where it belongs. "hooks" is not here: at the top it is
// Claude Code's hooks, read as such.
var misplacedTopKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range extensionKeys {
		if k != "hooks" {
			m[k] = `it belongs under "extension", e.g. "extension": {"` + k + `": …}`
		}
	}
	return m
}()

// checkTopKeys warns of each top-level key that is not in topKeys. A
// Claude Code manifest is left alone: its schema grows with Claude Code,
// and synaps reads only the parts it knows from it.
func (p *manifestParser) checkTopKeys(m *Manifest, top *jsonObject) {
	if m.Claude {
		return
	}
	for _, k := range top.keys {
		if slices.Contains(topKeys, k) {
			continue
		}
		note := fmt.Sprintf("unknown top-level key %q is ignored", k)
		switch {
		case misplacedTopKeys[k] != "":
			note += "; " + misplacedTopKeys[k]
		case suggest(k, topKeys) != "":
			note += fmt.Sprintf("; did you mean %q?", suggest(k, topKeys))
		case suggest(k, extensionKeys) != "":
			s := suggest(k, extensionKeys)
			note += fmt.Sprintf(`; did you mean %q? It belongs under "extension"`, s)
		default:
			note += "; known keys are " + strings.Join(topKeys, ", ")
		}
		p.warn(k, note)
	}
}

// belongsAtTop is the hint for a key of the "extension" object that is a
// top-level key ("version" inside "extension"), or "".
func belongsAtTop(k string) string {
	if slices.Contains(topKeys, k) && !slices.Contains(extensionKeys, k) {
		return `it belongs at the top level of the manifest, beside "name", not under "extension"`
	}
	return ""
}
