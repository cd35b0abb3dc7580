package app

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Capabilities are what a plugin may do, one line each ("permission
// tools.intercept", "sandbox network api.github.com"), sorted: what
// `synaps plugins update` compares between the installed version and
// the new one, so the user sees what an update adds before it runs.
// Both manifest dialects count: the guide's extension.permissions and
// the hooks its initialize may ask for, SynapsCLI's permissions and
// declared hooks; Claude Code hooks files, MCP and language servers and
// commands too.
func Capabilities(p *plugin.Plugin) []string {
	var out []string
	add := func(kind, item string) { out = append(out, kind+" "+item) }
	m := p.Manifest
	if m == nil {
		return nil
	}
	if e := m.Extension; e != nil {
		launch := e.EntryPoint
		if launch == "" {
			launch = strings.Join(append([]string{e.Command}, e.Args...), " ")
		}
		add("starts", launch)
		for _, perm := range e.PermissionList {
			add("permission", perm)
		}
		for _, s := range e.Hooks {
			item := s.Hook
			if s.Tool != "" {
				item += " (tool " + s.Tool + ")"
			}
			add("hook", item)
		}
		for _, name := range e.Env {
			add("environment variable", name)
		}
		if e.FailurePolicy == "closed" {
			// Open is the default; a guard that stops failing closed
			// shows as "- failure_policy closed".
			add("failure_policy", e.FailurePolicy)
		}
	}
	if sc := m.Sidecar; sc != nil {
		add("sidecar", sc.Lifecycle)
	}
	if sb := m.Sandbox; sb != nil {
		for _, r := range sb.Read {
			add("sandbox read", r)
		}
		for _, w := range sb.Write {
			add("sandbox write", w)
		}
		for _, n := range sb.Network {
			add("sandbox network", n)
		}
	}
	if all, _, err := parseClaudeHooks(p); err == nil {
		for _, h := range all {
			for ev, groups := range h.Events {
				for _, g := range groups {
					for _, hd := range g.Handlers {
						match := ""
						if s := g.Matcher.String(); s != "" {
							match = "[" + s + "]"
						}
						add("claude hook", ev+match+": "+hd.Command)
					}
				}
			}
		}
	}
	for _, name := range mcpServers(p) {
		add("mcp server", name)
	}
	for _, name := range lspServerLines(p) { // lsp.go
		add("lsp server", name)
	}
	for _, c := range m.Commands {
		add("command", "/"+p.ID+":"+c.Name)
	}
	if dirs, _ := p.CommandPaths(); len(dirs) > 0 {
		for _, dir := range dirs {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() {
					add("command", "/"+p.ID+":"+name)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// mcpServers names each MCP server a plugin configures with what it runs
// ("name: command args" or "name: url").
func mcpServers(p *plugin.Plugin) []string {
	sources, _ := p.MCPSources()
	var out []string
	for _, s := range sources {
		data := s.Data
		if data == nil {
			var err error
			if data, err = safefile.ReadAll(s.File, 4<<20); err != nil {
				continue
			}
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) != nil {
			continue
		}
		servers := top
		if inner, ok := top["mcpServers"]; ok {
			servers = nil
			json.Unmarshal(inner, &servers)
		}
		for name, raw := range servers {
			var srv struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
				URL     string   `json:"url"`
			}
			json.Unmarshal(raw, &srv)
			what := srv.URL
			if srv.Command != "" {
				what = strings.Join(append([]string{srv.Command}, srv.Args...), " ")
			}
			out = append(out, fmt.Sprintf("%s: %s", name, what))
		}
	}
	return out
}

// CapabilityDiff is what new may do that old may not (added) and the
// reverse (removed).
func CapabilityDiff(old, new *plugin.Plugin) (added, removed []string) {
	was, now := Capabilities(old), Capabilities(new)
	for _, c := range now {
		if !slices.Contains(was, c) {
			added = append(added, c)
		}
	}
	for _, c := range was {
		if !slices.Contains(now, c) {
			removed = append(removed, c)
		}
	}
	return added, removed
}
