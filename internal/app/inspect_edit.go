package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plural"
)

// slashPermissions is /permissions: the rules in force in the order the
// policy reads them, each with where it comes from; "allow|ask|deny RULE"
// adds one (to the project's .synaps/config, at once for this session),
// "remove RULE" takes one out of the session and of the config file it
// was written in.
func (a *App) slashPermissions(args []string) (SlashResult, error) {
	if a.Permissions == nil {
		return SlashResult{}, errors.New("/permissions: this session has no permission policy")
	}
	if len(args) == 0 {
		return SlashResult{Output: a.formatPermissions()}, nil
	}
	kind, text := args[0], strings.TrimSpace(strings.Join(args[1:], " "))
	if text == "" {
		return SlashResult{}, fmt.Errorf("usage: /permissions %s RULE, e.g. /permissions allow Bash(git status)", kind)
	}
	switch kind {
	case "allow", "ask", "deny":
		r, err := permission.ParseRule(text)
		if err != nil {
			return SlashResult{}, fmt.Errorf("/permissions %s: %v", kind, err)
		}
		path := filepath.Join(a.WorkDir, ProjectConfig)
		key := "permissions." + kind
		if err := config.Update(path, key, func(v string, _ bool) (string, error) {
			if slices.Contains(permission.SplitRules(v), text) {
				return v, nil
			}
			if strings.TrimSpace(v) == "" {
				return text, nil
			}
			return v + ", " + text, nil
		}); err != nil {
			return SlashResult{}, fmt.Errorf("/permissions %s: %w", kind, err)
		}
		r.Source = path + " " + key
		a.Permissions.AddRule(kind, r)
		out := fmt.Sprintf("%s rule %s added: saved in %s %s, in force now", kind, text, path, key)
		if kind == "allow" && !a.projectTrusted() {
			out += "; the project is not trusted, so later sessions use it only after `synaps trust`"
		}
		return SlashResult{Output: out}, nil
	case "remove", "rm":
		removed := a.Permissions.RemoveRule(text)
		if len(removed) == 0 {
			return SlashResult{}, fmt.Errorf("/permissions remove: no rule %s is in force; /permissions lists them, written as they are there", text)
		}
		var b strings.Builder
		for _, kr := range removed {
			file, key, fromFile := strings.Cut(kr.Rule.Source, " ")
			if !fromFile || !strings.HasPrefix(key, "permissions.") {
				fmt.Fprintf(&b, "removed %s rule %s for this session (it came from %s, not a file; it is back at the next start unless you leave it out there)\n", kr.Kind, text, dash(kr.Rule.Source))
				continue
			}
			err := config.Update(file, key, func(v string, _ bool) (string, error) {
				list := slices.DeleteFunc(permission.SplitRules(v), func(s string) bool { return s == text })
				return strings.Join(list, ", "), nil
			})
			if err != nil {
				fmt.Fprintf(&b, "removed %s rule %s for this session, but not from %s: %v\n", kr.Kind, text, file, err)
				continue
			}
			fmt.Fprintf(&b, "removed %s rule %s (from %s %s)\n", kr.Kind, text, file, key)
		}
		if a.Config != nil && !strings.Contains(b.String(), "(from "+a.Config.Path) {
			return SlashResult{Output: b.String()}, nil
		}
		// The user's config changed: read it again, so /config shows it.
		if cfg, err := config.Load(a.Config.Path); err == nil {
			a.Config = cfg
		}
		return SlashResult{Output: b.String()}, nil
	}
	return SlashResult{}, fmt.Errorf("unknown /permissions command %q; use allow RULE, ask RULE, deny RULE or remove RULE", kind)
}

// formatPermissions lists the mode and the rules in the order Decide
// reads them.
func (a *App) formatPermissions() string {
	var b strings.Builder
	m := a.Permissions.Mode()
	fmt.Fprintf(&b, "permission mode: %s (%s)\n", m, m.Describe())
	rs := a.Permissions.Rules()
	n := len(rs.Deny) + len(rs.Ask) + len(rs.Allow)
	if n == 0 {
		b.WriteString("no rules: the mode decides every call\n")
	} else {
		fmt.Fprintf(&b, "%s, in the order they are read (deny, then ask, then allow):\n", plural.Count(n, "rule"))
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "KIND\tRULE\tFROM")
		for _, k := range []struct {
			kind  string
			rules []permission.Rule
		}{{"deny", rs.Deny}, {"ask", rs.Ask}, {"allow", rs.Allow}} {
			for _, r := range k.rules {
				fmt.Fprintf(w, "%s\t%s\t%s\n", k.kind, r.Text, dash(r.Source))
			}
		}
		w.Flush()
	}
	b.WriteString(a.claudePermissionNotes())
	fmt.Fprintf(&b, "/permissions allow|ask|deny RULE adds a rule (saved in %s), /permissions remove RULE takes one out\n", filepath.Join(a.WorkDir, ProjectConfig))
	return b.String()
}

// slashConfig is /config: every key set, with the file it is set in (the
// user's config; the project's .synaps/config for its keys), or "set KEY
// VALUE" in the user's config.
func (a *App) slashConfig(args []string) (SlashResult, error) {
	if len(args) > 0 {
		if args[0] != "set" || len(args) < 3 {
			return SlashResult{}, errors.New("usage: /config set KEY VALUE (/config alone shows the config)")
		}
		key, value := args[1], strings.Join(args[2:], " ")
		if !validConfigKey(key) {
			return SlashResult{}, fmt.Errorf("/config set: %q is not a config key: letters, digits, '_', '-' and '.' only (docs/config.md lists the keys)", key)
		}
		probe, err := config.Parse(a.Config.Path, []byte(key+" = "+value+"\n"))
		if err != nil {
			return SlashResult{}, fmt.Errorf("/config set %s: %w", key, err)
		}
		if problems := probe.Check(); len(problems) > 0 {
			return SlashResult{}, fmt.Errorf("/config set %s: %s", key, strings.Join(problems, "; "))
		}
		if err := config.Set(a.Config.Path, key, value); err != nil {
			return SlashResult{}, fmt.Errorf("/config set %s: %w", key, err)
		}
		cfg, err := config.Load(a.Config.Path)
		if err != nil {
			return SlashResult{}, err
		}
		a.Config = cfg
		if a.Host != nil {
			a.Host.SetConfig(cfg)
		}
		return SlashResult{Output: fmt.Sprintf("%s = %s saved in %s; most keys take effect at the next start (/extensions reload restarts the plugins now)", key, value, a.Config.Path)}, nil
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "KEY\tVALUE\tFROM")
	rows := 0
	project, _ := config.Load(filepath.Join(a.WorkDir, ProjectConfig))
	for _, f := range []*config.File{project, a.Config} {
		if f == nil {
			continue
		}
		for _, k := range f.Keys() {
			v, _ := f.Get(k)
			if secretKey(k) {
				v = fmt.Sprintf("(set, %d characters, not shown)", len(v))
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", k, oneLinePrintable(v), f.Path)
			rows++
		}
	}
	w.Flush()
	if rows == 0 {
		b.Reset()
		fmt.Fprintf(&b, "no keys set: every value is its default (the user's config is %s)\n", a.Config.Path)
	}
	if a.Model != "" {
		from := "/model, a resumed session or the provider's default"
		if m, ok := a.Config.Get("model"); ok && m == a.Model {
			from = a.Config.Path
		}
		if a.opts.Model == a.Model {
			from = "--model"
		}
		fmt.Fprintf(&b, "model in force: %s (from %s)\n", a.Model, from)
	}
	b.WriteString("/config set KEY VALUE saves a key in the user's config; docs/config.md lists the keys\n")
	return SlashResult{Output: b.String()}, nil
}

// slashMemory is /memory: the instructions files of the user (the base
// directory's) and of the project, which of them the prompt holds.
// "edit user|project" is the TUI's (it opens $EDITOR); chat says where
// the file is.
func (a *App) slashMemory(args []string) (SlashResult, error) {
	if len(args) > 0 {
		if args[0] != "edit" || len(args) != 2 || (args[1] != "user" && args[1] != "project") {
			return SlashResult{}, errors.New("usage: /memory edit user|project")
		}
		path, _ := instructionsFile(a.WorkDir)
		if args[1] == "user" {
			path, _ = instructionsFile(a.BaseDir)
		}
		return SlashResult{Output: "edit " + path + " in your editor; the next session reads it (this one keeps the prompt it started with)", Edit: path}, nil
	}
	var b strings.Builder
	for _, s := range []struct{ scope, dir string }{{"user", a.BaseDir}, {"project", a.WorkDir}} {
		path, ok := instructionsFile(s.dir)
		if !ok {
			fmt.Fprintf(&b, "%s: none (%s would be read; /memory edit %s writes it", s.scope, path, s.scope)
			if s.scope == "project" {
				b.WriteString(", /init has the model write it")
			}
			b.WriteString(")\n")
			continue
		}
		_, text := contextText(s.dir)
		fmt.Fprintf(&b, "%s: %s (%s, ~%d tokens in the prompt)\n", s.scope, path, plural.Count(strings.Count(text, "\n")+1, "line"), (len(text)+charsPerToken-1)/charsPerToken)
	}
	b.WriteString("/memory edit user|project opens one in $EDITOR\n")
	return SlashResult{Output: b.String()}, nil
}

// initPrompt asks the model for the project's instructions file, as
// Claude Code's /init does: look at the repository first, then write the
// file for agents that will work in it.
const initPrompt = `Please analyze this codebase and create a %[1]s file, which will be given to coding agents that work in this repository.

Look at the repository first: list its files, read the README, the build files (Makefile, go.mod, package.json, Cargo.toml, pyproject.toml, …), the CI configuration and a few central source files.

What to add:
1. The commands that are used often: how to build, lint, run the tests, and how to run a single test.
2. The high-level architecture and structure of the code, the "big picture" that needs several files read to understand.

Usage notes:
- If there is already a %[1]s, suggest improvements to it rather than starting over.
- Do not repeat yourself, and do not list every file or component: those are easy to find.
- Do not add generic development practices or made-up sections; write only what you found in this repository.
- If there are Cursor rules (.cursor/rules/ or .cursorrules), Copilot rules (.github/copilot-instructions.md) or a CLAUDE.md or AGENTS.md, include their important parts.
- Write the file at %[2]s with the write tool, then say in one line what it holds.`

// slashInit is /init: a prompt for the model to write the project's
// instructions file, AGENTS.md unless the project keeps a CLAUDE.md.
func (a *App) slashInit() (SlashResult, error) {
	if a.provider == nil {
		return SlashResult{}, fmt.Errorf("/init: %w", a.NoModel())
	}
	path, _ := instructionsFile(a.WorkDir)
	prompt := fmt.Sprintf(initPrompt, filepath.Base(path), path)
	return SlashResult{Command: &CommandPrompt{Command: &command.Command{Name: "init", Source: "builtin"}, Prompt: prompt, Line: "/init"}}, nil
}

// validConfigKey: key can be written as one "key = value" line and read
// back as the same key.
func validConfigKey(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// secretKey: a key whose value is a credential (anthropic_api_key …),
// which /config does not print: a screen is shared, recorded, pasted.
func secretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"api_key", "apikey", "secret", "password"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	for _, w := range []string{"_key", "token", "_auth", "authorization"} {
		if strings.HasSuffix(k, w) {
			return true
		}
	}
	return false
}
