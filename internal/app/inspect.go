package app

// The inspection commands (/context, /status, /permissions, /config,
// /memory, /init): what a session is made of, asked from inside it, as
// Claude Code's commands of the same names show it. Each is plain text,
// so the TUI and `synaps chat` show the same.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
)

// slashInspect runs an inspection command; ok is false for any other.
func (a *App) slashInspect(ctx context.Context, f []string) (r SlashResult, ok bool, err error) {
	switch f[0] {
	case "/context":
		return SlashResult{Output: a.formatContext()}, true, nil
	case "/status":
		return SlashResult{Output: a.formatStatus()}, true, nil
	case "/permissions":
		r, err := a.slashPermissions(f[1:])
		return r, true, err
	case "/config":
		r, err := a.slashConfig(f[1:])
		return r, true, err
	case "/memory":
		r, err := a.slashMemory(f[1:])
		return r, true, err
	case "/init":
		r, err := a.slashInit()
		return r, true, err
	}
	return SlashResult{}, false, nil
}

// formatStatus is /status: what this session runs with.
func (a *App) formatStatus() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	model, provider := a.Model, llm.ProviderName(a.Model)
	if model == "" {
		model, provider = "none ("+a.NoModel().Error()+")", "-"
	}
	fmt.Fprintf(w, "model\t%s\n", model)
	fmt.Fprintf(w, "provider\t%s\n", provider)
	if a.Session != nil {
		fmt.Fprintf(w, "session\t%s\n", a.Session.ID)
		fmt.Fprintf(w, "session file\t%s\n", a.Session.Path)
	}
	fmt.Fprintf(w, "directory\t%s\n", a.WorkDir)
	fmt.Fprintf(w, "base directory\t%s\n", a.BaseDir)
	if a.Permissions != nil {
		m := a.Permissions.Mode()
		rs := a.Permissions.Rules()
		fmt.Fprintf(w, "permission mode\t%s (%s)\n", m, m.Describe())
		fmt.Fprintf(w, "permission rules\t%d allow, %d ask, %d deny (/permissions lists them)\n", len(rs.Allow), len(rs.Ask), len(rs.Deny))
	}
	fmt.Fprintf(w, "sandbox\tbash %s, plugins %s\n", onOff(a.sandbox.Bash), onOff(a.sandbox.Plugins))
	if a.Host == nil {
		fmt.Fprintf(w, "extensions\toff (--no-extensions)\n")
	} else {
		fmt.Fprintf(w, "extensions\t%s: %s\n", plural.Count(len(a.Statuses()), "plugin"), HealthLine(a.Statuses()))
	}
	if a.MCP == nil {
		fmt.Fprintf(w, "MCP servers\tnone\n")
	} else {
		sts := a.MCP.Statuses()
		states := map[string]int{}
		tools := 0
		for _, s := range sts {
			states[string(s.State)]++
			tools += len(s.Tools)
		}
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(states)) {
			parts = append(parts, fmt.Sprintf("%d %s", states[k], k))
		}
		fmt.Fprintf(w, "MCP servers\t%d (%s), %s\n", len(sts), strings.Join(parts, ", "), plural.Count(tools, "tool"))
	}
	if a.Tools != nil {
		fmt.Fprintf(w, "tools\t%d\n", len(a.Tools.Specs()))
	}
	fmt.Fprintf(w, "skills\t%d\n", len(a.Skills))
	if a.projectTrusted() {
		fmt.Fprintf(w, "project trust\ttrusted: its allow rules, mode, Claude hooks and MCP servers are used\n")
	} else {
		fmt.Fprintf(w, "project trust\tnot trusted: %s\n", a.untrustedWhy())
	}
	w.Flush()
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// fileExists: path is there (a file, or anything else a read would
// then say more about).
func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// instructionsFile is where a directory's instructions are: AGENTS.md, or
// CLAUDE.md when only that exists (the order agent.SystemPrompt reads
// them in); exists says whether it does.
func instructionsFile(dir string) (path string, exists bool) {
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		p := filepath.Join(dir, name)
		if fileExists(p) {
			return p, true
		}
	}
	return filepath.Join(dir, "AGENTS.md"), false
}
