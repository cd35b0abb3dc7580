// Package skill finds skills — directories holding a SKILL.md with YAML
// frontmatter (name, description) — lists them for the system prompt and
// serves their text through the load_skill tool. A skill's body may say
// {baseDir}; it is replaced by the skill's directory so links to files
// beside the skill resolve wherever it is installed.
package skill

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/tool"
)

// FileName is the file that makes a directory a skill.
const FileName = "SKILL.md"

// Skill is one discovered skill.
type Skill struct {
	Name        string
	Description string
	// Dir is the skill directory ({baseDir}); Path its SKILL.md.
	Dir, Path string
	// Source says where it was found: "user", "project" or "plugin:<id>".
	Source string
	// PluginRoot and PluginData are a plugin's skill's
	// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA}; empty for others.
	PluginRoot, PluginData string
}

// Root is a directory holding skill directories (<root>/<name>/SKILL.md).
type Root struct {
	Dir    string
	Source string
	// PluginRoot and PluginData: see Skill.
	PluginRoot, PluginData string
}

// Problem is a skill that could not be read, with the reason.
type Problem struct {
	Path string
	Err  error
}

// Discover reads every root in order. The first skill of a name wins, so
// roots are passed most specific first. Unreadable skills are returned as
// problems, never dropped silently.
func Discover(roots []Root) ([]Skill, []Problem) {
	var skills []Skill
	var problems []Problem
	seen := map[string]bool{}
	for _, r := range roots {
		entries, err := os.ReadDir(r.Dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, Problem{r.Dir, err})
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(r.Dir, e.Name())
			path := filepath.Join(dir, FileName)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			s, err := Load(path)
			if err != nil {
				problems = append(problems, Problem{path, err})
				continue
			}
			s.Source, s.PluginRoot, s.PluginData = r.Source, r.PluginRoot, r.PluginData
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			skills = append(skills, s)
		}
	}
	sort.Slice(skills, func(i, j int) bool { return skills[i].Name < skills[j].Name })
	return skills, problems
}

type frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// MaxFileSize bounds a SKILL.md: a larger one, a FIFO or a link to
// /dev/zero is not loaded (a warning naming it), never a hang.
const MaxFileSize = 1 << 20

// Load reads one SKILL.md's frontmatter. A missing name falls back to the
// directory name; a missing description is an error, since the model
// chooses skills by it.
func Load(path string) (Skill, error) {
	data, err := safefile.ReadAll(path, MaxFileSize)
	if err != nil {
		return Skill{}, err
	}
	fm, _, err := split(data)
	if err != nil {
		return Skill{}, fmt.Errorf("%s: %w", path, err)
	}
	var meta frontmatter
	if err := yaml.Unmarshal(fm, &meta); err != nil {
		return Skill{}, fmt.Errorf("%s: frontmatter is not valid YAML: %v", path, err)
	}
	dir := filepath.Dir(path)
	if meta.Name == "" {
		meta.Name = filepath.Base(dir)
	}
	if strings.TrimSpace(meta.Description) == "" {
		return Skill{}, fmt.Errorf("%s: frontmatter has no description; add `description: <when to use this skill>`", path)
	}
	return Skill{Name: meta.Name, Description: strings.TrimSpace(meta.Description), Dir: dir, Path: path}, nil
}

// split separates the frontmatter between the leading --- lines from the
// body. The file may start with a title line before the frontmatter, as
// some published skills do.
func split(data []byte) (fm, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := bytes.SplitAfter(data, []byte("\n"))
	start := -1
	for i, l := range lines {
		t := bytes.TrimSpace(l)
		if string(t) == "---" {
			start = i
			break
		}
		if len(t) > 0 && i > 2 {
			break
		}
	}
	if start < 0 {
		return nil, nil, errors.New("no frontmatter; start the file with a --- block holding name and description")
	}
	for j := start + 1; j < len(lines); j++ {
		if string(bytes.TrimSpace(lines[j])) == "---" {
			return bytes.Join(lines[start+1:j], nil), bytes.Join(lines[j+1:], nil), nil
		}
	}
	return nil, nil, errors.New("frontmatter is not closed by a --- line")
}

// Body returns the skill's text after the frontmatter with {baseDir}
// and ${CLAUDE_SKILL_DIR} replaced by the skill directory and, in a
// plugin's skill, ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} (and
// synaps's ${SYNAPS_PLUGIN_…}) by its directories, as Claude Code
// substitutes them, so "${CLAUDE_PLUGIN_ROOT}/scripts/x.sh" names a file
// that exists.
func (s Skill) Body() (string, error) {
	data, err := safefile.ReadAll(s.Path, MaxFileSize)
	if err != nil {
		return "", err
	}
	_, body, err := split(data)
	if err != nil {
		return "", err
	}
	pairs := []string{"{baseDir}", s.Dir, "${CLAUDE_SKILL_DIR}", s.Dir}
	if s.PluginRoot != "" {
		pairs = append(pairs, "${CLAUDE_PLUGIN_ROOT}", s.PluginRoot, "${SYNAPS_PLUGIN_ROOT}", s.PluginRoot,
			"${CLAUDE_PLUGIN_DATA}", s.PluginData, "${SYNAPS_PLUGIN_DATA}", s.PluginData)
	}
	return strings.NewReplacer(pairs...).Replace(string(body)), nil
}

// Index is the system-prompt section listing the skills.
func Index(skills []Skill) string {
	if len(skills) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Skills\nThese skills hold instructions for specific tasks. When a task matches one, call the load_skill tool with its name and follow what it says.\n")
	for _, s := range skills {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	return b.String()
}

// LoadTool is the load_skill tool.
type LoadTool struct{ Skills []Skill }

// Spec describes load_skill to the model.
func (t *LoadTool) Spec() tool.Spec {
	names := make([]string, len(t.Skills))
	for i, s := range t.Skills {
		names[i] = s.Name
	}
	schema, _ := json.Marshal(map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"name": map[string]any{"type": "string", "enum": names, "description": "the skill to load"}},
		"required":             []string{"name"},
		"additionalProperties": false,
	})
	return tool.Spec{RuntimeName: "load_skill", Source: "builtin", InputSchema: schema, ReadOnly: true,
		Description: "Load the full instructions of a skill listed in the system prompt."}
}

// Run returns the skill's body.
func (t *LoadTool) Run(_ context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct{ Name string }
	if err := json.Unmarshal(input, &in); err != nil {
		return tool.Result{Output: "input must be an object with a name", IsError: true}, nil
	}
	for _, s := range t.Skills {
		if s.Name == in.Name {
			body, err := s.Body()
			if err != nil {
				return tool.Result{Output: fmt.Sprintf("cannot read skill %s: %v", s.Name, err), IsError: true}, nil
			}
			return tool.Result{Output: body}, nil
		}
	}
	return tool.Result{Output: fmt.Sprintf("no skill named %q", in.Name), IsError: true}, nil
}
