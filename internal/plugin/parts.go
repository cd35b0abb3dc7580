package plugin

import (
	"os"
	"path/filepath"
)

// Part is one kind of thing a plugin directory can bring. Each kind is
// found here, from the plugin's directory and manifest, and used by the
// package that runs it. Later kinds (commands, agents, Claude command
// hooks, MCP servers) are added to this list.
type Part string

// Parts a plugin may bring, in the order Parts lists them.
const (
	// PartExtension is the manifest's "extension" object: a process
	// that internal/extension runs.
	PartExtension Part = "extension"
	// PartSkills is the skills/ directory: SKILL.md files that
	// internal/skill loads.
	PartSkills Part = "skills"
	// PartMCP is the .mcp.json file: MCP servers that internal/mcp runs
	// (Claude Code's plugin layout; a flat map or {"mcpServers": …}).
	PartMCP Part = "mcp"
)

// SkillsDir is where p's skills live.
func (p *Plugin) SkillsDir() string { return filepath.Join(p.Dir, "skills") }

// MCPFile is where p's MCP servers are configured.
func (p *Plugin) MCPFile() string { return filepath.Join(p.Dir, ".mcp.json") }

// Parts lists what p brings: an extension when its manifest has one,
// skills when it has a skills directory, MCP servers when it has an
// .mcp.json.
func (p *Plugin) Parts() []Part {
	var parts []Part
	if p.Manifest != nil && p.Manifest.Extension != nil {
		parts = append(parts, PartExtension)
	}
	if fi, err := os.Stat(p.SkillsDir()); err == nil && fi.IsDir() {
		parts = append(parts, PartSkills)
	}
	if fi, err := os.Stat(p.MCPFile()); err == nil && !fi.IsDir() {
		parts = append(parts, PartMCP)
	}
	return parts
}
