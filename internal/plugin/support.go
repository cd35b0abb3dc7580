package plugin

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/tomlite"
)

// The support report says, per part of a plugin, what synaps does with
// it: supported (runs as its format's host runs it), degraded (runs, and
// how it differs) or refused (not run, and why). `synaps plugins
// validate`, `install` and `info` print it, so an author knows what works
// before users find out.

// Level is how well synaps supports a part.
type Level string

const (
	Supported Level = "supported"
	Degraded  Level = "degraded"
	Refused   Level = "refused"
)

// SupportItem is one line of the report.
type SupportItem struct {
	Part  string
	Level Level
	// Note says what the part becomes in synaps, how it is degraded or
	// why it is refused.
	Note string
}

// Support is p's report, in a fixed order of parts.
func (p *Plugin) Support() []SupportItem {
	if p.Manifest == nil {
		return nil
	}
	var out []SupportItem
	add := func(part string, l Level, note string) { out = append(out, SupportItem{part, l, note}) }
	m := p.Manifest
	if m.Extension != nil {
		add("extension", Supported, "a process speaking synaps's JSON-RPC protocol")
	}
	if dirs, _ := p.SkillDirs(); hasAny(dirs) {
		if n := countFiles(dirs, "SKILL.md"); n > 0 {
			add("skills", Supported, fmt.Sprintf("%d SKILL.md, offered through load_skill", n))
		} else {
			add("skills", Refused, "skills/ holds no <name>/SKILL.md; nothing to load")
		}
	}
	if src, _ := p.MCPSources(); len(src) > 0 {
		note := "MCP servers, started once the plugin is trusted, under the plugin's sandbox"
		l := Supported
		if m.Format == FormatGemini && hasWarning(m.Warnings, "mcpServers.") {
			l, note = Degraded, note+"; see the warnings for what is not applied (trust, includeTools)"
		}
		add("mcpServers", l, note)
	}
	p.supportCommands(add)
	if paths, _ := p.AgentPaths(); hasAny(paths) {
		add("agents", Supported, "subagents the agent tool starts")
	}
	p.supportHooks(add)
	p.supportGemini(add)
	p.supportForeign(add)
	return out
}

// supportCommands reports commands/: Markdown commands, or a Gemini
// extension's TOML ones.
func (p *Plugin) supportCommands(add func(string, Level, string)) {
	paths, _ := p.CommandPaths()
	if !hasAny(paths) {
		return
	}
	if p.Manifest.Format == FormatGemini {
		n := countExt(paths, ".toml")
		var broken []string
		walk(paths, func(path string) {
			if strings.EqualFold(filepath.Ext(path), ".toml") {
				if why := checkTOMLCommand(path); why != "" {
					broken = append(broken, why)
				}
			}
		})
		add("commands", Supported, fmt.Sprintf("%s, /name and /dir:name; {{args}} substituted, !{…} run through the bash tool (guards, permission rules and sandbox; arguments shell-quoted), @{…} read under the Read rules", plural.Count(n-len(broken), "TOML command")))
		for _, why := range broken {
			add("commands", Refused, why)
		}
		return
	}
	add("commands", Supported, plural.Count(countExt(paths, ".md"), "Markdown command"))
}

// supportHooks reports hooks/hooks.json (and a manifest's hooks).
func (p *Plugin) supportHooks(add func(string, Level, string)) {
	files, err := p.ClaudeHooks()
	if err != nil {
		add("hooks", Refused, err.Error())
		return
	}
	if len(files) == 0 {
		return
	}
	empty := true
	for _, b := range files {
		var doc struct {
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(b, &doc) != nil || len(doc.Hooks) > 0 {
			empty = false
		}
	}
	if empty {
		return
	}
	switch p.Manifest.Format {
	case FormatGemini:
		data, _ := safefile.ReadAll(p.ClaudeHooksFile(), MaxManifestSize)
		_, warnings, _ := GeminiHooks(p.ClaudeHooksFile(), data)
		note := "command hooks in the one hook chain, Gemini's events as Claude Code's (BeforeTool→PreToolUse, AfterTool→PostToolUse, BeforeAgent→UserPromptSubmit, AfterAgent→Stop, PreCompress→PreCompact, Session*); the payload names Gemini's event and tool (BeforeTool, run_shell_command …), its other fields are Claude Code's (Gemini's are a subset but for timestamp)"
		add("hooks", Degraded, note)
		for _, w := range warnings {
			add("hooks", Refused, w)
		}
	default:
		add("hooks", Supported, "Claude Code command hooks in the one hook chain (scrubbed environment, sandbox; a failing hook lets the call through unless it has onFailure \"block\" or the plugin is in claude.fail_closed)")
	}
}

// supportGemini reports the parts only a Gemini CLI extension has.
func (p *Plugin) supportGemini(add func(string, Level, string)) {
	m := p.Manifest
	if m.Format != FormatGemini {
		return
	}
	paths, w := p.ContextFilePaths()
	for _, x := range w {
		add("contextFileName", Refused, x)
	}
	if len(paths) > 0 {
		var names []string
		for _, x := range paths {
			names = append(names, filepath.Base(x))
		}
		add("contextFileName", Supported, strings.Join(names, ", ")+" in the system prompt")
	} else if len(m.ContextFiles) > 0 {
		add("contextFileName", Refused, fmt.Sprintf("%s not found in the extension", strings.Join(m.ContextFiles, ", ")))
	}
	if len(m.ExcludeTools) > 0 || len(m.MCPDeny) > 0 {
		rules, warns := m.DenyRules()
		if len(rules) > 0 {
			add("excludeTools", Supported, "deny rules: "+strings.Join(rules, ", "))
		}
		for _, x := range warns {
			add("excludeTools", Refused, x)
		}
	}
	if p.hasPolicies() {
		pol := p.GeminiPolicies()
		if len(pol.Deny)+len(pol.Ask) > 0 {
			add("policies", Supported, fmt.Sprintf("deny: %s; ask: %s", orNone(pol.Deny), orNone(pol.Ask)))
		}
		for _, n := range pol.Notes {
			l := Degraded
			if strings.Contains(n, `"allow" is refused`) {
				l = Refused
			}
			add("policies", l, n)
		}
	}
	for _, s := range m.GeminiSettings {
		note := fmt.Sprintf("%s: synaps does not prompt for it; its MCP servers get $%s from synaps's environment (set it before starting synaps)", s.Name, s.EnvVar)
		if s.Sensitive {
			note += " (sensitive: never written to disk)"
		}
		add("settings", Degraded, note)
	}
}

// supportForeign reports the parts of Codex and Open Plugins plugins that
// synaps has no counterpart for.
func (p *Plugin) supportForeign(add func(string, Level, string)) {
	switch p.Manifest.Format {
	case FormatCodex:
		if _, err := os.Stat(filepath.Join(p.Dir, ".app.json")); err == nil {
			add("apps", Refused, ".app.json connects ChatGPT apps through OpenAI's service, which synaps does not speak")
		}
	case FormatOpen, FormatClaude:
	default:
		return
	}
	if src, _ := p.LSPSources(); len(src) > 0 {
		add("lspServers", Supported, "language servers started at the first edit of a file they handle; new errors reach the model with the edit's result (docs/lsp.md)")
	}
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

func hasWarning(ws []string, field string) bool {
	for _, w := range ws {
		if strings.Contains(w, ": "+field) {
			return true
		}
	}
	return false
}

// countFiles counts the files named name under dirs.
func countFiles(dirs []string, name string) int {
	n := 0
	walk(dirs, func(path string) {
		if filepath.Base(path) == name {
			n++
		}
	})
	return n
}

// countExt counts the files ending in ext under paths.
func countExt(paths []string, ext string) int {
	n := 0
	walk(paths, func(path string) {
		if strings.EqualFold(filepath.Ext(path), ext) {
			n++
		}
	})
	return n
}

func walk(roots []string, fn func(string)) {
	for _, r := range roots {
		_ = filepath.WalkDir(r, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				fn(path)
			}
			return nil
		})
	}
}

// FormatSupport writes the report, one part a line.
func FormatSupport(items []SupportItem) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "  %-16s %-9s %s\n", it.Part, it.Level, it.Note)
	}
	return b.String()
}

// checkTOMLCommand says why a Gemini CLI command file does not load, or
// "" when it does (internal/command reads it the same way).
func checkTOMLCommand(path string) string {
	data, err := safefile.ReadAll(path, MaxManifestSize)
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	doc, err := tomlite.Parse(string(data))
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	if _, ok := doc["prompt"].(string); !ok {
		return fmt.Sprintf(`%s: no "prompt" string`, path)
	}
	return ""
}
