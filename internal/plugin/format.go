package plugin

import (
	"os"
	"path/filepath"
)

// Plugin authors publish for several agents, each reading its own
// layout. synaps reads them all, unmodified, and maps each part onto what
// it has (one hook chain, one sandbox, one trust model); support.go says
// per part what loads and what does not.

// Format is the layout a plugin was written for.
type Format string

// The formats synaps reads, in the order LoadManifest looks for them.
const (
	FormatSynaps Format = "synaps"       // .synaps-plugin/plugin.json
	FormatClaude Format = "claude-code"  // .claude-plugin/plugin.json, or none
	FormatCodex  Format = "codex"        // .codex-plugin/plugin.json
	FormatOpen   Format = "open-plugins" // .plugin/plugin.json
	FormatGemini Format = "gemini"       // gemini-extension.json
)

// Where the other formats keep their manifests, relative to the plugin
// directory.
const (
	CodexManifestDir = ".codex-plugin"
	OpenManifestDir  = ".plugin"
	GeminiManifest   = "gemini-extension.json"
)

// manifestCandidates are the manifests LoadManifest tries, first found
// wins: a plugin published for several agents (superpowers ships four)
// is read in the richest form synaps knows.
func manifestCandidates() []struct {
	rel    string
	format Format
} {
	return []struct {
		rel    string
		format Format
	}{
		{filepath.Join(ManifestDir, ManifestFile), FormatSynaps},
		{filepath.Join(ClaudeManifestDir, ManifestFile), FormatClaude},
		{filepath.Join(CodexManifestDir, ManifestFile), FormatCodex},
		{filepath.Join(OpenManifestDir, ManifestFile), FormatOpen},
		{GeminiManifest, FormatGemini},
		// Agent Plugins 1.0 (the Open Plugins spec's current draft): a
		// plugin.json at the root, skills/ and mcp.json.
		{ManifestFile, FormatOpen},
	}
}

// findManifest is the manifest file of pluginDir and its format; with
// none present, .synaps-plugin/plugin.json (whose absence is then said).
func findManifest(pluginDir string) (string, Format) {
	for _, c := range manifestCandidates() {
		if _, err := os.Lstat(filepath.Join(pluginDir, c.rel)); err == nil {
			return filepath.Join(pluginDir, c.rel), c.format
		}
	}
	return filepath.Join(pluginDir, ManifestDir, ManifestFile), FormatSynaps
}

// formatOf is the format of a manifest file, by its place.
func formatOf(file string) Format {
	if filepath.Base(file) == GeminiManifest {
		return FormatGemini
	}
	switch filepath.Base(filepath.Dir(file)) {
	case ClaudeManifestDir:
		return FormatClaude
	case CodexManifestDir:
		return FormatCodex
	case OpenManifestDir:
		return FormatOpen
	}
	return FormatSynaps
}

// claudeLike reports whether a format's manifest is read as Claude
// Code's: metadata and component paths, never an extension process.
// Codex's and Open Plugins' manifests are shaped like it.
func (f Format) claudeLike() bool { return f == FormatClaude || f == FormatCodex || f == FormatOpen }

// Title is the format's name for people.
func (f Format) Title() string {
	switch f {
	case FormatClaude:
		return "Claude Code plugin"
	case FormatCodex:
		return "Codex plugin"
	case FormatOpen:
		return "Open Plugins plugin"
	case FormatGemini:
		return "Gemini CLI extension"
	}
	return "synaps plugin"
}
