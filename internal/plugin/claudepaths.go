package plugin

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Claude Code's plugin.json may name more places for a plugin's parts:
// "commands", "agents" and "skills" take a path or an array of paths
// (files or directories), "mcpServers" and "lspServers" a path, an array
// of paths or the servers object itself. They add to the default directories, never
// replace them. Paths are relative to the plugin root; one that leaves it
// is a warning and is not used (a plugin reads only its own directory).

// ClaudePaths are the extra paths of a Claude Code plugin's manifest, as
// written (relative to the plugin root).
type ClaudePaths struct {
	Commands, Agents, Skills []string
	// MCPFiles are mcpServers given as paths; MCPInline is the servers
	// object given inline ({"name": {...}} or {"mcpServers": {...}}).
	MCPFiles  []string
	MCPInline json.RawMessage
	// LSPFiles are lspServers given as paths; LSPInline the servers
	// object given inline.
	LSPFiles  []string
	LSPInline json.RawMessage
}

// parseClaudePaths reads the component path fields of a Claude Code
// plugin's manifest. Wrong shapes are warnings: the rest of the plugin
// loads.
func (p *manifestParser) parseClaudePaths(m *Manifest, top *jsonObject) {
	paths := func(key string) []string {
		v, ok := top.get(key)
		if !ok {
			return nil
		}
		var one string
		if json.Unmarshal(v, &one) == nil {
			return []string{one}
		}
		var many []string
		if json.Unmarshal(v, &many) == nil {
			return many
		}
		p.warn(key, fmt.Sprintf("must be a path or an array of paths, got %s; ignored", kindOf(v)))
		return nil
	}
	m.ClaudePaths.Commands = paths("commands")
	m.ClaudePaths.Agents = paths("agents")
	m.ClaudePaths.Skills = paths("skills")
	if v, ok := top.get("mcpServers"); ok {
		if kindOf(v) == "an object" {
			m.ClaudePaths.MCPInline = v
		} else {
			m.ClaudePaths.MCPFiles = paths("mcpServers")
		}
	}
	if v, ok := top.get("lspServers"); ok {
		if kindOf(v) == "an object" {
			m.ClaudePaths.LSPInline = v
		} else {
			m.ClaudePaths.LSPFiles = paths("lspServers")
		}
	}
}

// inside resolves a manifest path against the plugin root, refusing one
// that leaves it.
func (p *Plugin) inside(field, rel string) (string, error) {
	if rel == "" || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%s: %s: %q must be a path relative to the plugin root (such as ./custom/commands)", p.manifestFile(), field, rel)
	}
	full := filepath.Join(p.Dir, rel)
	if r, err := filepath.Rel(p.Dir, full); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: %s: %q leaves the plugin directory; a plugin may only name its own files", p.manifestFile(), field, rel)
	}
	return full, nil
}

func (p *Plugin) manifestFile() string {
	if p.Manifest != nil {
		return p.Manifest.File
	}
	return p.Dir
}

// componentPaths is the default directory followed by the manifest's extra
// paths for one component; a path that leaves the plugin is a warning.
func (p *Plugin) componentPaths(def, field string, extra []string) (paths, warnings []string) {
	paths = []string{filepath.Join(p.Dir, def)}
	for _, rel := range extra {
		full, err := p.inside(field, rel)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if !slices.Contains(paths, full) {
			paths = append(paths, full)
		}
	}
	return paths, warnings
}

func (p *Plugin) claudePaths() ClaudePaths {
	if p.Manifest == nil {
		return ClaudePaths{}
	}
	return p.Manifest.ClaudePaths
}

// CommandPaths are the files and directories p's commands come from:
// commands/ and the manifest's "commands".
func (p *Plugin) CommandPaths() (paths, warnings []string) {
	return p.componentPaths("commands", "commands", p.claudePaths().Commands)
}

// AgentPaths are the files and directories p's agents come from: agents/
// and the manifest's "agents".
func (p *Plugin) AgentPaths() (paths, warnings []string) {
	return p.componentPaths("agents", "agents", p.claudePaths().Agents)
}

// SkillDirs are the directories p's skills come from: skills/ and the
// manifest's "skills".
func (p *Plugin) SkillDirs() (paths, warnings []string) {
	return p.componentPaths("skills", "skills", p.claudePaths().Skills)
}

// MCPSources are p's MCP server configs: .mcp.json when it exists, the
// files the manifest's "mcpServers" names, and its inline object (named
// "<manifest>#mcpServers", Data set).
func (p *Plugin) MCPSources() (sources []MCPSource, warnings []string) {
	if fi, err := os.Stat(p.MCPFile()); err == nil && !fi.IsDir() {
		sources = append(sources, MCPSource{File: p.MCPFile()})
	}
	if p.Manifest != nil && p.Manifest.Format == FormatOpen {
		// Agent Plugins 1.0 names it mcp.json, without the dot.
		if fi, err := os.Stat(filepath.Join(p.Dir, "mcp.json")); err == nil && !fi.IsDir() {
			sources = append(sources, MCPSource{File: filepath.Join(p.Dir, "mcp.json")})
		}
	}
	cp := p.claudePaths()
	for _, rel := range cp.MCPFiles {
		full, err := p.inside("mcpServers", rel)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if full != p.MCPFile() {
			sources = append(sources, MCPSource{File: full})
		}
	}
	if len(cp.MCPInline) > 0 {
		sources = append(sources, MCPSource{File: p.manifestFile() + "#mcpServers", Data: cp.MCPInline})
	}
	return sources, warnings
}

// LSPFile is where p's language servers are configured by default.
func (p *Plugin) LSPFile() string { return filepath.Join(p.Dir, ".lsp.json") }

// LSPSources are p's language server configs (Claude Code's LSP
// servers): .lsp.json when it exists, the files the manifest's
// "lspServers" names, and its inline object (named
// "<manifest>#lspServers", Data set).
func (p *Plugin) LSPSources() (sources []MCPSource, warnings []string) {
	if fi, err := os.Stat(p.LSPFile()); err == nil && !fi.IsDir() {
		sources = append(sources, MCPSource{File: p.LSPFile()})
	}
	cp := p.claudePaths()
	for _, rel := range cp.LSPFiles {
		full, err := p.inside("lspServers", rel)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if full != p.LSPFile() {
			sources = append(sources, MCPSource{File: full})
		}
	}
	if len(cp.LSPInline) > 0 {
		sources = append(sources, MCPSource{File: p.manifestFile() + "#lspServers", Data: cp.LSPInline})
	}
	return sources, warnings
}

// MCPSource is one MCP (or LSP) config of a plugin: a file, or (Data set) an
// object written inline in the manifest, File naming where.
type MCPSource struct {
	File string
	Data []byte
}

// hasAny reports whether any of paths exists.
func hasAny(paths []string) bool {
	for _, path := range paths {
		if _, err := os.Stat(path); err == nil {
			return true
		}
	}
	return false
}

// pathWarnings are the problems of the manifest's extra paths (one that
// leaves the plugin, or is absolute), said once when the plugin is found.
func (p *Plugin) pathWarnings() []string {
	var all []string
	_, w := p.CommandPaths()
	all = append(all, w...)
	_, w = p.AgentPaths()
	all = append(all, w...)
	_, w = p.SkillDirs()
	all = append(all, w...)
	_, w = p.MCPSources()
	all = append(all, w...)
	_, w = p.LSPSources()
	return append(all, w...)
}
