package permission

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
)

// Call is a tool call as the rules see it.
type Call struct {
	// Name is the model-facing tool name; RuntimeName the runtime one
	// ("<plugin-id>:<tool>" for an extension tool).
	Name, RuntimeName string
	// Builtin: one of synaps's own tools (bash, read, write, …).
	Builtin bool
	// ReadOnly: the tool changes nothing (read, grep, find, ls, an
	// extension tool that declares "read_only": true).
	ReadOnly bool
	// Input is the input that will run (after every modify).
	Input json.RawMessage
	// MCPServer is the configured name of the MCP server whose tool this
	// is, "" for other tools: MCP rules match its name exactly.
	MCPServer string
}

// command is a bash call's command, "" for anything else.
func (c Call) command() string {
	if !c.Builtin || c.Name != "bash" {
		return ""
	}
	var in struct {
		Command string `json:"command"`
	}
	json.Unmarshal(c.Input, &in)
	return strings.TrimSpace(in.Command)
}

// path is the absolute path a file tool's call names: its "path" input
// (default the working directory, as grep, find and ls take it).
func (c Call) path(workDir, home string) string {
	var in struct {
		Path string `json:"path"`
	}
	json.Unmarshal(c.Input, &in)
	return absPath(in.Path, workDir, home)
}

func absPath(p, workDir, home string) string {
	switch {
	case p == "":
		p = workDir
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, p[1:])
	case !filepath.IsAbs(p):
		p = filepath.Join(workDir, p)
	}
	return filepath.Clean(p)
}

// matches reports whether the rule covers the call. For bash, sub is one
// simple command of the call's command line; for other tools it is
// unused.
func (r Rule) matches(c Call, sub, workDir, home string) bool {
	if !r.matchesTool(c) {
		return false
	}
	if r.Spec == "" {
		return true
	}
	switch kindOf(r.Tool) {
	case kindBash:
		return commandMatches(r.Spec, sub)
	case kindRead, kindEdit:
		return r.matchesPath(c, workDir, home)
	}
	if isWebFetch(r.Tool) {
		return domainMatches(r.Spec, c.Input)
	}
	return false
}

// commandMatches matches one simple command against a Bash specifier:
// "git status:*" is a prefix at a word boundary ("git status" and "git
// status -s", never "git statusx"); a specifier with * elsewhere is a
// wildcard over the whole command (* matches anything, spaces too);
// anything else must equal the command.
func commandMatches(spec, cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		p = strings.TrimSpace(p)
		return cmd == p || strings.HasPrefix(cmd, p+" ") || strings.HasPrefix(cmd, p+"\t")
	}
	if strings.Contains(spec, "*") {
		parts := strings.Split(spec, "*")
		for i, s := range parts {
			parts[i] = regexp.QuoteMeta(s)
		}
		re, err := regexp.Compile(`^` + strings.Join(parts, `.*`) + `$`)
		return err == nil && re.MatchString(cmd)
	}
	return cmd == strings.TrimSpace(spec)
}

// pathMatches matches an absolute path against a Read/Edit specifier, a
// gitignore-style pattern: "//abs/path" is absolute, "~/p" is in the home
// directory, "/p" and "p" are relative to the project directory; ** spans
// directories, * and ? stay within one. A pattern naming a directory
// covers everything beneath it.
func pathMatches(spec, path, workDir, home string) bool {
	var pat string
	switch {
	case strings.HasPrefix(spec, "//"):
		pat = spec[1:]
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		pat = home + spec[1:]
	case strings.HasPrefix(spec, "/"):
		pat = workDir + spec
	default:
		pat = workDir + "/" + strings.TrimPrefix(spec, "./")
	}
	re := compileGlob(pat)
	if re == nil {
		return false
	}
	for p := path; ; p = filepath.Dir(p) {
		if re.MatchString(p) {
			return true
		}
		if p == filepath.Dir(p) {
			return false
		}
	}
}

// globRegexp turns a glob into a regexp body: ** (and **/) span
// directories, * and ? stay within one.
func globRegexp(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case strings.HasPrefix(glob[i:], "**/"):
			b.WriteString(`(?:.*/)?`)
			i += 2
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(`.*`)
			i++
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// Covers reports whether the rule names the call at all: for bash, the
// whole command line or any command it would run (as a deny rule sees
// them: a line with a command that cannot be resolved is covered). Claude Code's
// hook `if` filter ("Bash(git commit:*)") asks this: does the hook
// concern this call? It is not an allow verdict (Policy.Decide is).
func (r Rule) Covers(c Call, workDir, home string) bool {
	cmd := c.command()
	if cmd == "" {
		return r.matches(c, "", workDir, home)
	}
	ok, _ := r.namesLine(c, cmd, parsedShell(cmd))
	return ok
}
