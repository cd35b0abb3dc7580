package plugin

import (
	"os"
	"path/filepath"
)

// Claude Code reads a plugin without .claude-plugin/plugin.json: "the
// manifest is optional; if omitted, Claude Code auto-discovers components
// in default locations and derives the plugin name from the directory
// name". Anthropic's own plugin-dev ships that way. synaps does the same
// when the directory holds one of Claude Code's default parts; a
// directory with none of them still gets the "manifest not found" error,
// which says how to write one (it is more likely a mistake than a plugin).

// claudeDefaultParts are the places Claude Code looks in a plugin without
// a manifest, relative to its root.
var claudeDefaultParts = []string{"commands", "agents", "skills", filepath.Join("hooks", "hooks.json"), ".mcp.json", ".lsp.json"}

// hasClaudeDefaultParts reports whether dir holds one of Claude Code's
// default component places.
func hasClaudeDefaultParts(dir string) bool {
	for _, rel := range claudeDefaultParts {
		if _, err := os.Stat(filepath.Join(dir, rel)); err == nil {
			return true
		}
	}
	return false
}

// implicitClaudeManifest is the manifest of a Claude Code plugin that has
// none: named after its directory, its parts from the default places.
// File is where the manifest would be (.claude-plugin/plugin.json), so
// messages about the plugin name the file to create.
func implicitClaudeManifest(pluginDir string) *Manifest {
	return &Manifest{
		File:     filepath.Join(pluginDir, ClaudeManifestDir, ManifestFile),
		Name:     filepath.Base(pluginDir),
		Claude:   true,
		Format:   FormatClaude,
		Implicit: true,
	}
}
