// Package command reads slash commands written as Markdown files — the
// format of Claude Code's commands/ directories, which synaps's own
// commands/ directories share — and expands one into the prompt it
// stands for.
//
// A command file is a prompt with optional frontmatter
// (description, argument-hint, allowed-tools, model). Expanding it drops
// the frontmatter, runs each !`cmd` (through the caller's Env.Bash, which
// runs it as a bash tool call, past every guard) and puts its output in
// its place, substitutes $ARGUMENTS and $1…$9 (quoted in a !`cmd` line; a
// body without $ARGUMENTS gets "ARGUMENTS: …" appended), and adds the
// files @path names that the Read rules allow. The package knows files and
// text; which directories are read and who sends the prompt is its
// caller's business.
package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Command is one slash command.
type Command struct {
	// Name is what follows the slash: the file name without .md.
	Name string
	// Plugin is the plugin that brings it ("" for the user's and the
	// project's own); /plugin:name always reaches it.
	Plugin string
	// Source says where it was found, for /help: "plugin", "user",
	// "project", "claude user", "claude project".
	Source string
	// Namespace is the subdirectory it was found in ("frontend" for
	// commands/frontend/x.md), shown in /help as Claude does.
	Namespace string
	File      string

	Description  string
	ArgumentHint string
	// AllowedTools are permission rules (Claude's syntax) that let those
	// tools run without asking for the rest of the command's turn.
	AllowedTools []string
	// Model is the model the command asks for; synaps notes it and uses
	// the session's (switch with /model).
	Model string
	// Declared is set for a command a SynapsCLI manifest declares in
	// "commands" instead of a Markdown file: running it does what its
	// shape says (a program, a tool, a skill prompt, the extension), and
	// Dir is its plugin's directory. Such a command has no body.
	Declared *plugin.Command
	Dir      string
	// Sandbox is the declaring plugin's manifest sandbox section (nil:
	// none), the policy a Declared shell command runs under.
	Sandbox *plugin.Sandbox
	// PluginVars are ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} of
	// a plugin's command (pluginvars.go); zero for others.
	PluginVars PluginVars
	// Gemini: a Gemini CLI command (commands/*.toml, gemini.go), expanded
	// by Gemini's rules ({{args}}, !{…}, @{…}).
	Gemini bool

	body string
}

// Qualified is the name that reaches the command even when another has
// the same Name: plugin:name for a plugin's, else Name.
func (c *Command) Qualified() string {
	if c.Plugin != "" {
		return c.Plugin + ":" + c.Name
	}
	return c.Name
}

// Load reads the commands in dir and its subdirectories (*.md), or the
// one file dir names (a Claude plugin manifest may list files). A file
// that cannot be read or whose frontmatter is not YAML is a warning
// naming it; the others load.
func Load(dir, plugin, source string) ([]Command, []string) {
	var out []Command
	var warnings []string
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if path != dir {
				warnings = append(warnings, fmt.Sprintf("%s: %v", path, err))
			}
			return nil
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md") {
			return nil
		}
		c, err := Parse(path)
		if err != nil {
			warnings = append(warnings, err.Error())
			return nil
		}
		c.Plugin, c.Source = plugin, source
		if rel, err := filepath.Rel(dir, filepath.Dir(path)); err == nil && rel != "." && path != dir {
			c.Namespace = filepath.ToSlash(rel)
		}
		out = append(out, c)
		return nil
	})
	return out, warnings
}

// maxFile bounds a command or agent file: a cloned project's one that is
// larger, a FIFO or a link to /dev/zero is a warning, never a hang.
const maxFile = 1 << 20

// Parse reads one command file.
func Parse(path string) (Command, error) {
	data, err := safefile.ReadAll(path, maxFile)
	if err != nil {
		return Command{}, err
	}
	c := Command{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), File: path}
	fm, body, ok := split(data)
	c.body = string(body)
	if !ok {
		c.Description = firstLine(c.body)
		return c, nil
	}
	meta, err := parseFrontmatter(fm)
	if err != nil {
		return c, fmt.Errorf("%s: frontmatter %v; write one `key: value` a line, or remove the --- block", path, err)
	}
	c.Description, c.Model, c.ArgumentHint = meta.values["description"], meta.values["model"], meta.values["argument-hint"]
	if list, ok := meta.lists["allowed-tools"]; ok {
		c.AllowedTools = list
	} else if v := strings.TrimSpace(meta.values["allowed-tools"]); v != "" {
		if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
			v = v[1 : len(v)-1]
		}
		for _, r := range splitRules(v) {
			c.AllowedTools = append(c.AllowedTools, strings.Trim(r, `"'`))
		}
	}
	if c.Description == "" {
		c.Description = firstLine(c.body)
	}
	return c, nil
}

// meta is a frontmatter block read as Claude Code reads it: flat
// `key: value` lines, and `- item` lines under a key with no value. It is
// not parsed as YAML, because command files are not strict YAML:
// `argument-hint: [add|remove] [id]` is a hint, not a list.
type meta struct {
	values map[string]string
	lists  map[string][]string
}

func parseFrontmatter(fm []byte) (meta, error) {
	m := meta{values: map[string]string{}, lists: map[string][]string{}}
	last := ""
	folding := false // inside a value continued on unindented lines
	block := byte(0) // '>' or '|': inside a YAML block scalar (key: >-)
	for i, line := range strings.Split(string(fm), "\n") {
		t := strings.TrimSpace(line)
		if block != 0 {
			if t == "" || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
				m.values[last] = blockLine(m.values[last], t, block)
				continue
			}
			block = 0
		}
		switch {
		case folding && t == "":
			m.values[last] += "\n"
		case t == "" || strings.HasPrefix(t, "#"):
		case strings.HasPrefix(t, "- ") && last != "" && m.values[last] == "":
			m.lists[last] = append(m.lists[last], strings.Trim(strings.TrimSpace(t[2:]), `"'`))
		case folding && !knownKey(t):
			m.values[last] += "\n" + t
		default:
			k, v, ok := strings.Cut(t, ":")
			if !ok || strings.ContainsAny(strings.TrimSpace(k), " \t") {
				if last != "" && m.values[last] != "" && !strings.HasPrefix(line, " ") {
					// An unindented line after a value continues it, as
					// Anthropic's own agents write their <example> blocks
					// under description: (frontmatter.go).
					folding = true
					m.values[last] += "\n" + t
					continue
				}
				return m, fmt.Errorf("line %d %q is not `key: value`", i+2, t)
			}
			folding = false
			last = strings.TrimSpace(k)
			m.values[last] = unquote(strings.TrimSpace(v))
			if b := blockStyle(m.values[last]); b != 0 {
				// A YAML block scalar (description: >-), as real
				// agents and skills write long descriptions.
				block, m.values[last] = b, ""
			}
		}
	}
	for k, v := range m.values {
		m.values[k] = strings.TrimRight(v, "\n")
	}
	return m, nil
}

// blockStyle is '>' (folded) or '|' (literal) when v opens a YAML block
// scalar (">", ">-", "|+", "|2" …), else 0.
func blockStyle(v string) byte {
	if v == "" || (v[0] != '>' && v[0] != '|') || strings.Trim(v[1:], "+-0123456789") != "" {
		return 0
	}
	return v[0]
}

// blockLine adds one line of a block scalar to its value: a folded
// block joins lines with a space (a blank line is a newline), a literal
// one keeps them.
func blockLine(value, line string, style byte) string {
	switch {
	case value == "":
		if line == "" {
			return value
		}
		return line
	case line == "":
		return value + "\n"
	case style == '|':
		return value + "\n" + line
	case strings.HasSuffix(value, "\n"):
		return value + line // a folded block's blank line is its newline
	}
	return value + " " + line
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

// splitRules splits "Bash(git add:*), Bash(git status:*)" at the commas
// outside parentheses.
func splitRules(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				if t := strings.TrimSpace(s[start:i]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// split separates a leading --- frontmatter block from the body; ok is
// false when there is none (the whole file is the body).
func split(data []byte) (fm, body []byte, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(data, []byte("---")) {
		return nil, data, false
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if string(bytes.TrimSpace(lines[0])) != "---" {
		return nil, data, false
	}
	for j := 1; j < len(lines); j++ {
		if string(bytes.TrimSpace(lines[j])) == "---" {
			return bytes.Join(lines[1:j], nil), bytes.Join(lines[j+1:], nil), true
		}
	}
	return nil, data, false
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "# ")); l != "" {
			if len(l) > 80 {
				l = l[:77] + "…"
			}
			return l
		}
	}
	return ""
}

// Set is the commands of a session, for lookup by name.
type Set struct {
	cmds []Command
}

// NewSet makes a set; commands listed first win a name they share only
// through /plugin:name (a bare name shared by two is ambiguous).
func NewSet(cmds []Command) *Set {
	s := &Set{cmds: slices.Clone(cmds)}
	slices.SortStableFunc(s.cmds, func(a, b Command) int { return strings.Compare(a.Qualified(), b.Qualified()) })
	return s
}

// All lists the commands, sorted by qualified name.
func (s *Set) All() []Command { return s.cmds }

// Resolve finds the command "/name" or "/plugin:name" names (without the
// slash). found is false when no command has the name; an error says a
// bare name is ambiguous and lists the qualified names.
func (s *Set) Resolve(name string) (*Command, bool, error) {
	if s == nil {
		return nil, false, nil
	}
	var hits []*Command
	for i := range s.cmds {
		c := &s.cmds[i]
		if c.Qualified() == name {
			return c, true, nil
		}
		if c.Name == name {
			hits = append(hits, c)
		}
	}
	switch len(hits) {
	case 0:
		return nil, false, nil
	case 1:
		return hits[0], true, nil
	}
	var names []string
	for _, c := range hits {
		names = append(names, "/"+c.Qualified())
	}
	return nil, true, fmt.Errorf("/%s is ambiguous: %s bring one; use %s", name, sources(hits), strings.Join(names, " or "))
}

func sources(cs []*Command) string {
	var out []string
	for _, c := range cs {
		if c.Plugin != "" {
			out = append(out, "plugin "+c.Plugin)
		} else {
			out = append(out, "the "+c.Source+" commands")
		}
	}
	return strings.Join(out, " and ")
}
