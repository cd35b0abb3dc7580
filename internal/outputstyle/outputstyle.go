// Package outputstyle reads Claude Code's output styles: Markdown files
// whose body is added to the system prompt to change how the model
// answers (terser, more explanatory, teaching). A style file has an
// optional frontmatter block with name, description and
// keep-coding-instructions; its name defaults to the file's.
package outputstyle

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// Style is one output style.
type Style struct {
	Name        string
	Description string
	// KeepCoding is keep-coding-instructions: true. synaps keeps its own
	// prompt whatever it says (see docs/plugins.md); it is listed.
	KeepCoding bool
	// Prompt is the file's body, added to the system prompt.
	Prompt string
	// File is where it was read; Source says whose it is: "user",
	// "project" or "plugin:<id>".
	File, Source string
}

// maxFile bounds a style file; a style is a page of text.
const maxFile = 256 << 10

// Load reads one style file.
func Load(path, source string) (Style, error) {
	data, err := safefile.ReadAll(path, maxFile)
	if err != nil {
		return Style{}, err
	}
	s := Style{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), File: path, Source: source}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	body := text
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		fm, after, found := strings.Cut(rest, "\n---")
		if !found {
			return s, fmt.Errorf("%s: the frontmatter's --- block is not closed; end it with a line ---", path)
		}
		body = strings.TrimPrefix(after, "\n")
		if i := strings.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(body[:i]) == "" {
			body = body[i+1:]
		}
		for _, line := range strings.Split(fm, "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			switch strings.TrimSpace(k) {
			case "name":
				if v != "" {
					s.Name = v
				}
			case "description":
				s.Description = v
			case "keep-coding-instructions":
				s.KeepCoding = v == "true"
			}
		}
	}
	s.Prompt = strings.TrimSpace(body)
	if s.Prompt == "" {
		return s, fmt.Errorf("%s: the style has no text after its frontmatter; write how the model should answer", path)
	}
	return s, nil
}

// LoadPath reads a style file, or every *.md of a directory (sorted); a
// directory that does not exist holds none. Files that cannot be read are
// warnings, the rest load.
func LoadPath(path, source string) (styles []Style, warnings []string) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil
	}
	files := []string{path}
	if st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.md"))
		sort.Strings(files)
	}
	for _, f := range files {
		s, err := Load(f, source)
		if err != nil {
			warnings = append(warnings, "output style not loaded: "+err.Error())
			continue
		}
		styles = append(styles, s)
	}
	return styles, warnings
}

// Find is the style called name: its exact name ("plugin:name" for a
// plugin's), else the one style whose bare name it is, case-insensitive
// as Claude Code's /output-style is. ok false: none, or several (why
// says which).
func Find(styles []Style, name string) (s Style, ok bool, why string) {
	for _, s := range styles {
		if strings.EqualFold(s.Name, name) {
			return s, true, ""
		}
	}
	var found []Style
	for _, s := range styles {
		_, bare, _ := strings.Cut(s.Name, ":")
		if strings.EqualFold(bare, name) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 1:
		return found[0], true, ""
	case 0:
		names := []string{"default"}
		for _, s := range styles {
			names = append(names, s.Name)
		}
		return Style{}, false, fmt.Sprintf("no output style %q; there are: %s", name, strings.Join(names, ", "))
	}
	var names []string
	for _, s := range found {
		names = append(names, s.Name)
	}
	return Style{}, false, fmt.Sprintf("%q is more than one output style (%s); give the full name", name, strings.Join(names, ", "))
}

// SystemText is what a style adds to the system prompt.
func (s Style) SystemText() string {
	return "\n# Output style: " + s.Name + "\nAnswer in this output style, whatever the task:\n\n" + s.Prompt + "\n"
}
