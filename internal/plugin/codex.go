package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// A Codex plugin is a directory with .codex-plugin/plugin.json, shaped
// as Claude Code's manifest: "skills" and "mcpServers" (paths, or the
// servers inline), "hooks" (a path or the hooks object), "apps" (ChatGPT
// app connectors, refused: they need OpenAI's service) and "interface"
// (the Codex app's listing, ignored). Its hooks use Claude Code's events
// and payloads; by default they are in hooks.json at the plugin root (as
// OpenAI's curated plugins keep them) or hooks/hooks.json, and a command
// written "./scripts/x.sh" is the plugin's file, as Codex runs it.

// CodexRootHooksFile is where a Codex plugin keeps its hooks by default.
func (p *Plugin) CodexRootHooksFile() string { return filepath.Join(p.Dir, "hooks.json") }

// codexHookFiles adds a Codex plugin's root hooks.json to files and
// writes its relative commands against the plugin root.
func (p *Plugin) codexHookFiles(files map[string][]byte, read func(string) error) error {
	if fi, err := os.Stat(p.CodexRootHooksFile()); err == nil && !fi.IsDir() {
		if err := read(p.CodexRootHooksFile()); err != nil {
			return err
		}
	}
	for name, data := range files {
		files[name] = pluginRelativeCommands(data)
	}
	return nil
}

// pluginRelativeCommands rewrites each hook command that starts with
// "./" to start with ${CLAUDE_PLUGIN_ROOT}/; anything else, and a file
// that is not a hooks object, is left as it is (the hooks reader says
// what is wrong with it).
func pluginRelativeCommands(data []byte) []byte {
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return data
	}
	events, _ := doc["hooks"].(map[string]any)
	changed := false
	for _, groups := range events {
		list, _ := groups.([]any)
		for _, g := range list {
			group, _ := g.(map[string]any)
			hooks, _ := group["hooks"].([]any)
			for _, h := range hooks {
				hook, _ := h.(map[string]any)
				if c, ok := hook["command"].(string); ok && strings.HasPrefix(c, "./") {
					hook["command"] = "${CLAUDE_PLUGIN_ROOT}/" + strings.TrimPrefix(c, "./")
					changed = true
				}
			}
		}
	}
	if !changed {
		return data
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return data
	}
	return out
}
