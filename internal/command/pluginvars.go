package command

import "strings"

// Claude Code replaces ${CLAUDE_PLUGIN_ROOT} (the plugin's directory) and
// ${CLAUDE_PLUGIN_DATA} (its private data directory, kept across updates)
// inline in a plugin's command, agent and skill text, its allowed-tools,
// hooks and MCP/LSP configs, so a command can run
// "${CLAUDE_PLUGIN_ROOT}/scripts/setup.sh". synaps's own spellings,
// ${SYNAPS_PLUGIN_ROOT} and ${SYNAPS_PLUGIN_DATA}, mean the same.

// PluginVars are the directories a plugin's text may name.
type PluginVars struct {
	Root, Data string
}

// expand replaces the plugin variables in text; zero vars leave it as is
// (a user's own command has no plugin root).
func (v PluginVars) expand(text string) string {
	if v.Root == "" {
		return text
	}
	return v.Replacer().Replace(text)
}

// Expand is expand for callers outside the package (allowed-tools rules,
// skills, agents).
func (v PluginVars) Expand(text string) string { return v.expand(text) }

// Replacer replaces both spellings of both variables.
func (v PluginVars) Replacer() *strings.Replacer {
	return strings.NewReplacer(
		"${CLAUDE_PLUGIN_ROOT}", v.Root, "${SYNAPS_PLUGIN_ROOT}", v.Root,
		"${CLAUDE_PLUGIN_DATA}", v.Data, "${SYNAPS_PLUGIN_DATA}", v.Data,
	)
}
