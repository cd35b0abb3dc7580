package plugin

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/safefile"
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
	// PartClaudeHooks are Claude Code command hooks: hooks/hooks.json,
	// or the manifest's "hooks"; internal/claude runs them.
	PartClaudeHooks Part = "claude-hooks"
	// PartCommands and PartAgents are commands/*.md and agents/*.md
	// (internal/command reads them).
	PartCommands Part = "commands"
	PartAgents   Part = "agents"
	// PartLSP is .lsp.json or the manifest's lspServers: language
	// servers internal/lsp runs (Claude Code's plugin layout).
	PartLSP Part = "lsp"
	// PartContext is a Gemini CLI extension's context file (GEMINI.md),
	// put in the system prompt.
	PartContext Part = "context"
	// PartPolicies are a Gemini CLI extension's excludeTools and
	// policies/*.toml, read as deny and ask rules.
	PartPolicies Part = "policies"
)

// ClaudeHooksFile is where a plugin's Claude Code hooks live by default.
func (p *Plugin) ClaudeHooksFile() string { return filepath.Join(p.Dir, "hooks", "hooks.json") }

// ClaudeHooks lists the plugin's Claude hook sources: files, each with its
// content, and the manifest's inline hooks object (file name
// "plugin.json#hooks"). A file that cannot be read is an error naming it.
func (p *Plugin) ClaudeHooks() (files map[string][]byte, err error) {
	files = map[string][]byte{}
	read := func(path string) error {
		b, err := safefile.ReadAll(path, MaxManifestSize)
		if err != nil {
			return fmt.Errorf("%s: cannot read the plugin's hooks: %v", path, err)
		}
		files[path] = b
		return nil
	}
	if _, err := os.Stat(p.ClaudeHooksFile()); err == nil {
		if err := read(p.ClaudeHooksFile()); err != nil {
			return files, err
		}
		if p.Manifest != nil && p.Manifest.Format == FormatGemini {
			// Gemini's events and tool names, written as Claude Code's;
			// what has no counterpart is said by the support report.
			out, _, err := GeminiHooks(p.ClaudeHooksFile(), files[p.ClaudeHooksFile()])
			if err != nil {
				return files, err
			}
			files[p.ClaudeHooksFile()] = out
		}
	}
	if p.Manifest != nil && p.Manifest.Format == FormatCodex {
		defer func() {
			if err == nil {
				err = p.codexHookFiles(files, read)
			}
		}()
	}
	if p.Manifest == nil || len(p.Manifest.ClaudeHooks) == 0 {
		return files, nil
	}
	// A path, an array of paths, or the hooks object itself.
	var paths []string
	var one string
	if json.Unmarshal(p.Manifest.ClaudeHooks, &one) == nil {
		paths = []string{one}
	} else if json.Unmarshal(p.Manifest.ClaudeHooks, &paths) != nil {
		files[p.Manifest.File+"#hooks"] = append(append([]byte(`{"hooks":`), p.Manifest.ClaudeHooks...), '}')
		return files, nil
	}
	for _, rel := range paths {
		full, err := p.inside("hooks", rel)
		if err != nil {
			return files, err
		}
		if _, done := files[full]; done {
			continue
		}
		if err := read(full); err != nil {
			return files, err
		}
	}
	return files, nil
}

// SkillsDir is where p's skills live.
func (p *Plugin) SkillsDir() string { return filepath.Join(p.Dir, "skills") }

// MCPFile is where p's MCP servers are configured.
func (p *Plugin) MCPFile() string { return filepath.Join(p.Dir, ".mcp.json") }

// Parts lists what p brings: an extension when its manifest has one,
// skills when it has a skills directory, MCP servers when it has an
// .mcp.json, Claude command hooks when it has hooks/hooks.json or its
// manifest names hooks, language servers when it has an .lsp.json or
// its manifest names lspServers.
func (p *Plugin) Parts() []Part {
	var parts []Part
	if p.Manifest != nil && p.Manifest.Extension != nil {
		parts = append(parts, PartExtension)
	}
	if dirs, _ := p.SkillDirs(); hasAny(dirs) {
		parts = append(parts, PartSkills)
	}
	if src, _ := p.MCPSources(); len(src) > 0 {
		parts = append(parts, PartMCP)
	}
	if _, err := os.Stat(p.ClaudeHooksFile()); err == nil || (p.Manifest != nil && len(p.Manifest.ClaudeHooks) > 0) || p.codexRootHooks() {
		parts = append(parts, PartClaudeHooks)
	}
	if paths, _ := p.CommandPaths(); hasAny(paths) || (p.Manifest != nil && len(p.Manifest.Commands) > 0) {
		parts = append(parts, PartCommands)
	}
	if paths, _ := p.AgentPaths(); hasAny(paths) {
		parts = append(parts, PartAgents)
	}
	if src, _ := p.LSPSources(); len(src) > 0 {
		parts = append(parts, PartLSP)
	}
	if paths, _ := p.ContextFilePaths(); len(paths) > 0 {
		parts = append(parts, PartContext)
	}
	if p.Manifest != nil && p.Manifest.Format == FormatGemini && (len(p.Manifest.ExcludeTools) > 0 || p.hasPolicies()) {
		parts = append(parts, PartPolicies)
	}
	return parts
}

// NothingNote is the warning for a plugin that brings nothing at all — no
// extension, skills, commands, agents, Claude hooks, MCP servers, help,
// keybinds, settings or sidecar —, or "" when it brings something. Such a
// plugin is valid but does nothing, which is almost always a slip (an
// extension's keys written outside "extension"), so validate, list and
// info say so rather than calling it loaded and leaving it there.
func (p *Plugin) NothingNote() string {
	if p.ExtensionErr != nil || len(p.Parts()) > 0 {
		return ""
	}
	if m := p.Manifest; m != nil && (len(m.Help) > 0 || len(m.Keybinds) > 0 || len(m.Settings) > 0 || m.Sidecar != nil) {
		return ""
	}
	return `the plugin brings nothing: no "extension" object, and no skills/, commands/, agents/, hooks/hooks.json, .mcp.json or .lsp.json in its directory; add an "extension" object to run a process, or one of those`
}

// codexRootHooks reports whether p is a Codex plugin with a root
// hooks.json.
func (p *Plugin) codexRootHooks() bool {
	if p.Manifest == nil || p.Manifest.Format != FormatCodex {
		return false
	}
	fi, err := os.Stat(p.CodexRootHooksFile())
	return err == nil && !fi.IsDir()
}
