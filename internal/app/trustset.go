package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/trust"
)

// openTrust works out, item by item, what of the project trust lets
// load (trust.Evaluate): nothing of an untrusted project, and of a
// trusted one what `synaps trust` approved with the content it has now.
// What is held back is one note at start, naming each item and the
// command that trusts it. A project trusted before pins existed has its
// present content recorded now (trust.State.Legacy).
func (a *App) openTrust() {
	listed, err := plugin.IsTrusted(a.BaseDir, a.WorkDir)
	if err != nil {
		a.Notes = append(a.Notes, fmt.Sprintf("cannot read %s, so the project counts as untrusted: %v", filepath.Join(a.BaseDir, plugin.TrustedProjectsFile), err))
	}
	a.trust = trust.Evaluate(a.BaseDir, a.WorkDir, listed, a.opts.TrustProject)
	a.Notes = append(a.Notes, a.trust.Warnings...)
	if a.trust.Legacy {
		if err := trust.SavePins(a.BaseDir, a.WorkDir, a.trust.Items); err != nil {
			a.Notes = append(a.Notes, fmt.Sprintf("trust: cannot record what this project holds (%v); it stays trusted as a path until `synaps trust` records it", err))
		}
	}
	if n := a.trust.Note(); n != "" {
		a.Notes = append(a.Notes, n)
	}
}

// TrustState is the session's project trust, item by item (nil before
// openTrust): what was held back and why.
func (a *App) TrustState() *trust.State { return a.trust }

// trustAllows reports whether the project item id may load.
func (a *App) trustAllows(id string) bool { return a.trust.Allows(id) }

// projectFileAllowed reports whether a project command or agent file may
// load; files outside the project (the user's, plugins') always may.
func (a *App) projectFileAllowed(kind, file string) bool {
	rel, err := filepath.Rel(a.WorkDir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return true
	}
	return a.trustAllows(trust.FileID(kind, rel))
}

// filterProjectCommands drops the project's commands trust holds back.
func (a *App) filterProjectCommands(cmds []command.Command, source string) []command.Command {
	if source != "project" && source != "claude project" {
		return cmds
	}
	out := cmds[:0:0]
	for _, c := range cmds {
		if a.projectFileAllowed(trust.KindCommand, c.File) {
			out = append(out, c)
		}
	}
	return out
}

// filterProjectAgents drops the project's agents trust holds back.
func (a *App) filterProjectAgents(ags []command.Agent, source string) []command.Agent {
	if source != "project" && source != "claude project" {
		return ags
	}
	out := ags[:0:0]
	for _, ag := range ags {
		if a.projectFileAllowed(trust.KindAgent, ag.File) {
			out = append(out, ag)
		}
	}
	return out
}

// filterProjectServers drops the project's MCP servers trust holds back.
func (a *App) filterProjectServers(servers []mcp.Server) []mcp.Server {
	out := servers[:0:0]
	for _, sv := range servers {
		if sv.Source.Scope == "project" {
			rel, err := filepath.Rel(a.WorkDir, sv.Source.File)
			if err != nil || !a.trustAllows(trust.MCPID(rel, sv.Name)) {
				continue
			}
		}
		out = append(out, sv)
	}
	return out
}

// importClaudeUser reports whether the user's own Claude Code
// configuration (~/.claude/settings.json hooks, ~/.claude/commands and
// agents, ~/.claude.json MCP servers) is read: yes unless
// claude.import_user_hooks = false.
func importClaudeUser(get func(string) (string, bool)) bool {
	v, _ := get(KeyClaudeUserHooks)
	return strings.TrimSpace(v) != "false"
}

// claudeUserNote says, once at start, which of the user's Claude Code
// files this session read and how to stop it, or "" when none holds
// anything synaps reads.
func (a *App) claudeUserNote() string {
	home := a.opts.Getenv("HOME")
	if home == "" || !importClaudeUser(a.Config.Get) {
		return ""
	}
	var parts []string
	settings := filepath.Join(home, ".claude", "settings.json")
	if data, err := safefile.ReadAll(settings, plugin.MaxManifestSize); err == nil {
		var s struct {
			Hooks map[string][]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(data, &s) == nil {
			n := 0
			for _, g := range s.Hooks {
				n += len(g)
			}
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%s from %s", plural.Count(n, "hook"), settings))
			}
		}
	}
	count := func(dir string, recursive bool) int {
		n := 0
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && path != dir && !recursive {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".md") {
				n++
			}
			return nil
		})
		return n
	}
	if n := count(filepath.Join(home, ".claude", "commands"), true); n > 0 {
		parts = append(parts, fmt.Sprintf("%s from %s", plural.Count(n, "command"), filepath.Join(home, ".claude", "commands")))
	}
	if n := count(filepath.Join(home, ".claude", "agents"), false); n > 0 {
		parts = append(parts, fmt.Sprintf("%s from %s", plural.Count(n, "agent"), filepath.Join(home, ".claude", "agents")))
	}
	if a.MCP != nil {
		n := 0
		for _, st := range a.MCPStatuses() {
			if st.Source.Kind == "claude user" || st.Source.Kind == "claude local" {
				n++
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s from %s", plural.Count(n, "MCP server"), filepath.Join(home, ".claude.json")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("using your Claude Code configuration: %s; set claude.import_user_hooks = false in %s to stop", strings.Join(parts, ", "), filepath.Join(a.BaseDir, "config"))
}

// TrustNow is the terminal UI's answer to its trust dialog: once
// trusts everything the project holds for this session only (as
// --trust-project), else the directory is listed and every item's
// digest recorded, as `synaps trust` does (approved lists them). Trust
// is worked out again and the commands and agents read again; the
// caller reloads the extensions (plugins and Claude hooks). The
// project's MCP servers and agent types join in the next session.
func (a *App) TrustNow(once bool) (approved []trust.Item, err error) {
	if a.WorkDir == "" {
		return nil, errors.New("this session has no project directory to trust")
	}
	if once {
		a.opts.TrustProject = true
		if a.Host != nil {
			a.Host.SetTrustProject(true)
		}
	} else if approved, err = TrustItems(a.BaseDir, a.WorkDir); err != nil {
		return nil, err
	}
	listed, _ := plugin.IsTrusted(a.BaseDir, a.WorkDir)
	a.trust = trust.Evaluate(a.BaseDir, a.WorkDir, listed, a.opts.TrustProject)
	a.openCommands()
	return approved, nil
}

// TrustItems lists dir in trusted-projects and records the digests of
// what it holds now; it returns what it approved.
func TrustItems(baseDir, dir string) ([]trust.Item, error) {
	if _, err := Trust(baseDir, dir); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	items, _ := trust.Inventory(abs)
	if err := os.MkdirAll(baseDir, 0o755); err != nil {
		return nil, err
	}
	return items, trust.SavePins(baseDir, abs, items)
}
