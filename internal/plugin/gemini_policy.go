package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/tomlite"
)

// A Gemini CLI extension's policies/*.toml hold [[rule]] tables (toolName,
// decision, commandPrefix, argsPattern, modes …). Gemini CLI lets an
// extension's policy restrict, never approve: synaps reads "deny" as deny
// rules and "ask_user" as ask rules, and refuses "allow". A rule synaps
// cannot say exactly is made stricter, never looser: a deny with an
// argsPattern or commandRegex asks for every call of the tool.

// PolicyRules are the permission rules (Claude Code's syntax) an
// extension's policies stand for.
type PolicyRules struct {
	Deny, Ask []string
	// Notes say, one a rule, what was not taken as written and why.
	Notes []string
}

// PoliciesDir is where a Gemini CLI extension keeps its policy files.
func (p *Plugin) PoliciesDir() string { return filepath.Join(p.Dir, "policies") }

// GeminiPolicies reads the extension's policies/*.toml. A file that
// cannot be read is a note naming it; the others apply.
func (p *Plugin) GeminiPolicies() PolicyRules {
	var out PolicyRules
	if p.Manifest == nil || p.Manifest.Format != FormatGemini {
		return out
	}
	files, _ := filepath.Glob(filepath.Join(p.PoliciesDir(), "*.toml"))
	sort.Strings(files)
	for _, f := range files {
		name := f
		if rel, err := filepath.Rel(p.Dir, f); err == nil {
			name = rel // messages name the file as the author knows it
		}
		data, err := safefile.ReadAll(f, MaxManifestSize)
		if err != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: cannot read: %v; its rules are not applied", name, err))
			continue
		}
		doc, err := tomlite.Parse(string(data))
		if err != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: %v; its rules are not applied", name, err))
			continue
		}
		rules, _ := doc["rule"].([]map[string]any)
		for i, r := range rules {
			policyRule(fmt.Sprintf("%s: rule[%d]", name, i), r, &out)
		}
	}
	return out
}

// policyRule adds one [[rule]] to out.
func policyRule(where string, r map[string]any, out *PolicyRules) {
	decision, _ := r["decision"].(string)
	if decision == "allow" {
		out.Notes = append(out.Notes, where+": decision \"allow\" is refused: an extension's policy may only restrict (deny, ask_user), as in Gemini CLI")
		return
	}
	if decision != "deny" && decision != "ask_user" {
		out.Notes = append(out.Notes, fmt.Sprintf("%s: decision %q is not deny, ask_user or allow; the rule is not applied", where, decision))
		return
	}
	if modes := strs(r["modes"]); len(modes) > 0 && !contains(modes, "default") {
		out.Notes = append(out.Notes, fmt.Sprintf("%s: applies only in Gemini CLI's %s mode, which synaps does not have (synaps's plan mode refuses every change anyway); not applied", where, strings.Join(modes, "/")))
		return
	}
	var rules []string
	for _, t := range strs(r["toolName"]) {
		tool, ok := GeminiToolName(t)
		if !ok {
			if m, _ := r["mcpName"].(string); m != "" {
				tool = "mcp__" + m + "__" + t
			} else {
				out.Notes = append(out.Notes, fmt.Sprintf("%s: tool %q is not one synaps has; skipped", where, t))
				continue
			}
		}
		_, pattern := r["argsPattern"]
		_, regex := r["commandRegex"]
		prefixes := strs(r["commandPrefix"])
		switch {
		case pattern || regex:
			out.Notes = append(out.Notes, fmt.Sprintf("%s: argsPattern/commandRegex cannot be written as a synaps rule; every %s call is asked instead", where, tool))
			out.Ask = append(out.Ask, tool)
		case len(prefixes) > 0 && tool == "Bash":
			for _, pre := range prefixes {
				rules = append(rules, "Bash("+pre+":*)")
			}
		default:
			rules = append(rules, tool)
		}
	}
	if decision == "deny" {
		out.Deny = append(out.Deny, rules...)
	} else {
		out.Ask = append(out.Ask, rules...)
	}
}

// strs reads a TOML string or array of strings.
func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hasPolicies reports whether the extension has policy files.
func (p *Plugin) hasPolicies() bool {
	files, _ := filepath.Glob(filepath.Join(p.PoliciesDir(), "*.toml"))
	return len(files) > 0
}

// ContextFilePaths are the files a plugin adds to the system prompt: a
// Gemini CLI extension's contextFileName, GEMINI.md when it names none.
// A name that leaves the plugin is a warning; a missing file is left out
// (Gemini CLI does the same) and said by the support report.
func (p *Plugin) ContextFilePaths() (paths, warnings []string) {
	if p.Manifest == nil || p.Manifest.Format != FormatGemini {
		return nil, nil
	}
	names := p.Manifest.ContextFiles
	if len(names) == 0 {
		names = []string{"GEMINI.md"}
	}
	for _, n := range names {
		full, err := p.inside("contextFileName", n)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if fi, err := os.Stat(full); err == nil && !fi.IsDir() {
			paths = append(paths, full)
		}
	}
	return paths, warnings
}
