package command

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// Agent is a subagent definition: a Markdown file with frontmatter
// (name, description, tools, model) whose body is the agent's system
// prompt — Claude Code's agents/*.md, which synaps's own agents/ share.
// They are the agent types of the agent tool (internal/agent).
type Agent struct {
	Name, Description, Model string
	Tools                    []string
	Plugin, Source, File     string
	Prompt                   string
	// MaxTurns and MaxTokens are synaps's budget fields (max_turns,
	// max_tokens); 0 when the file sets none.
	MaxTurns, MaxTokens int
}

// LoadAgents reads the agent files in dir (*.md, not recursive), or the
// one file dir names (a Claude plugin manifest may list files). A file
// without a name in its frontmatter is named after the file. Each warning
// names the file and says whether the agent still loads: one that does
// not parse (bad frontmatter, no closing ---, a name or tools list cut
// short) is not loaded; a bad budget falls back to the default.
func LoadAgents(dir, plugin, source string) ([]Agent, []string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		fi, serr := os.Stat(dir)
		if serr != nil || fi.IsDir() {
			return nil, nil
		}
		dir, ents = filepath.Dir(dir), []os.DirEntry{fs.FileInfoToDirEntry(fi)}
	}
	var out []Agent
	var warnings []string
	for _, e := range ents {
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := safefile.ReadAll(path, maxFile)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%v; the agent is not loaded", err))
			continue
		}
		a := Agent{Name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), Plugin: plugin, Source: source, File: path}
		fm, body, ok := split(data)
		a.Prompt = strings.TrimSpace(string(body))
		if !ok && opensFrontmatter(data) {
			warnings = append(warnings, fmt.Sprintf("%s: the frontmatter opened with --- is never closed (add a line --- after it); the agent is not loaded", path))
			continue
		}
		if ok {
			m, err := parseFrontmatter(fm)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: frontmatter %v; the agent is not loaded", path, err))
				continue
			}
			if n := m.values["name"]; n != "" {
				if !validAgentName(n) {
					warnings = append(warnings, fmt.Sprintf("%s: name %q: use letters, digits, '-', '_' or '.' (such as code-reviewer); the agent is not loaded", path, n))
					continue
				}
				a.Name = n
			}
			a.Description, a.Model = m.values["description"], m.values["model"]
			for key, n := range map[string]*int{"max_turns": &a.MaxTurns, "max_tokens": &a.MaxTokens} {
				if v, ok := m.values[key]; ok {
					if *n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil || *n < 0 {
						*n = 0
						warnings = append(warnings, fmt.Sprintf("%s: %s = %q is not a whole number; the agent loads with the default budget", path, key, v))
					}
				}
			}
			if list, ok := m.lists["tools"]; ok {
				a.Tools = list
			} else if v := strings.TrimSpace(m.values["tools"]); v != "" {
				if strings.HasPrefix(v, "[") {
					// A YAML flow list: [Read, Grep].
					if !strings.HasSuffix(v, "]") {
						warnings = append(warnings, fmt.Sprintf("%s: tools %q: the list opened with [ is never closed; the agent is not loaded", path, v))
						continue
					}
					v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
				}
				for _, t := range splitRules(v) {
					if t = strings.TrimSpace(strings.Trim(t, `"'`)); t != "" {
						a.Tools = append(a.Tools, t)
					}
				}
			}
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, warnings
}

// opensFrontmatter reports whether data starts with a --- line (then
// split found no closing one).
func opensFrontmatter(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, _, _ := bytes.Cut(data, []byte("\n"))
	return string(bytes.TrimSpace(first)) == "---"
}

// validAgentName reports whether n can be a subagent_type: letters,
// digits, '-', '_', '.', ':' (a plugin's qualified name), not starting
// with punctuation.
func validAgentName(n string) bool {
	for i, r := range n {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case i > 0 && (r == '-' || r == '_' || r == '.' || r == ':'):
		default:
			return false
		}
	}
	return n != ""
}
