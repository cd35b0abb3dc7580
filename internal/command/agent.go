package command

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
// without a name in its frontmatter is named after the file; one that
// does not parse is a warning naming it.
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
		data, err := os.ReadFile(path)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		a := Agent{Name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), Plugin: plugin, Source: source, File: path}
		fm, body, ok := split(data)
		a.Prompt = strings.TrimSpace(string(body))
		if ok {
			m, err := parseFrontmatter(fm)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: frontmatter %v", path, err))
				continue
			}
			if n := m.values["name"]; n != "" {
				a.Name = n
			}
			a.Description, a.Model = m.values["description"], m.values["model"]
			for key, n := range map[string]*int{"max_turns": &a.MaxTurns, "max_tokens": &a.MaxTokens} {
				if v, ok := m.values[key]; ok {
					if *n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil || *n < 0 {
						*n = 0
						warnings = append(warnings, fmt.Sprintf("%s: %s = %q is not a whole number; the default budget is used", path, key, v))
					}
				}
			}
			if list, ok := m.lists["tools"]; ok {
				a.Tools = list
			} else if v := m.values["tools"]; v != "" {
				for _, t := range splitRules(v) {
					a.Tools = append(a.Tools, strings.Trim(t, `"'`))
				}
			}
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, warnings
}
