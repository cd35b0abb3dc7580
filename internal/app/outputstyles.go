package app

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/outputstyle"
)

// Output styles (Claude Code's): a style's text is added to the system
// prompt to change how the model answers. They come from the user
// (~/.claude/output-styles and <base>/output-styles), a trusted project
// (.claude/output-styles) and enabled plugins (output-styles/ and the
// manifest's "outputStyles", named "<plugin>:<name>"). The session starts
// with config output_style (default: none), and /output-style NAME
// switches for this session and saves the choice in the user's config.

// outputStyles is the session's styles and the one in force.
type outputStyles struct {
	all    []outputstyle.Style
	active *outputstyle.Style
}

// findStyles reads every style the session may use; unreadable files
// are notes, as are enabled plugins' required options without a value
// (userconfig.go), found in the same pass over the plugins.
func (a *App) findStyles() []outputstyle.Style {
	var out []outputstyle.Style
	add := func(path, source string, rename func(string) string) {
		styles, warnings := outputstyle.LoadPath(path, source)
		a.Notes = append(a.Notes, warnings...)
		for _, s := range styles {
			if rename != nil {
				s.Name = rename(s.Name)
			}
			out = append(out, s)
		}
	}
	if home := a.opts.Getenv("HOME"); home != "" {
		add(filepath.Join(home, ".claude", "output-styles"), "user", nil)
	}
	add(filepath.Join(a.BaseDir, "output-styles"), "user", nil)
	if a.projectTrusted() {
		add(filepath.Join(a.WorkDir, ".claude", "output-styles"), "project", nil)
	}
	if !a.opts.NoExtensions {
		for _, p := range a.discover() {
			if p.Err != nil || p.Disabled || p.Untrusted || p.Manifest == nil {
				continue
			}
			// Each enabled plugin's required options without a value are
			// said here, once a session (its hooks and MCP servers would
			// run without them).
			a.Notes = append(a.Notes, MissingOptions(a.BaseDir, a.Config, p)...)
			paths, warnings := p.OutputStylePaths()
			a.Notes = append(a.Notes, warnings...)
			for _, path := range paths {
				id := p.ID
				add(path, "plugin:"+id, func(n string) string { return id + ":" + n })
			}
		}
	}
	return out
}

// openOutputStyle finds the styles and puts config output_style in
// force; one that does not exist is a note naming those that do.
func (a *App) openOutputStyle() {
	a.style.all = a.findStyles()
	name, _ := a.Config.Get(config.KeyOutputStyle)
	if name == "" || strings.EqualFold(name, "default") {
		return
	}
	s, ok, why := outputstyle.Find(a.style.all, name)
	if !ok {
		a.Notes = append(a.Notes, fmt.Sprintf("config %s: %s; the default style is used (/output-style lists them)", config.KeyOutputStyle, why))
		return
	}
	a.style.active = &s
}

// outputStyleText is what the style in force adds to the system prompt.
func (a *App) outputStyleText() string {
	if a.style.active == nil {
		return ""
	}
	return a.style.active.SystemText()
}

// OutputStyles lists the styles, the one in force first marked.
func (a *App) OutputStyles() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	mark := func(on bool) string {
		if on {
			return "*"
		}
		return " "
	}
	fmt.Fprintf(w, "%s default\tsynaps's own answers\tbuilt in\n", mark(a.style.active == nil))
	for _, s := range a.style.all {
		on := a.style.active != nil && a.style.active.File == s.File
		fmt.Fprintf(w, "%s %s\t%s\t%s\n", mark(on), s.Name, s.Description, s.Source)
	}
	w.Flush()
	b.WriteString("/output-style NAME switches (saved as output_style in your config).")
	return b.String()
}

// SetOutputStyle puts the style called name in force for the next
// request and saves it in the user's config ("default": none).
func (a *App) SetOutputStyle(name string) (string, error) {
	var next *outputstyle.Style
	if !strings.EqualFold(name, "default") {
		s, ok, why := outputstyle.Find(a.style.all, name)
		if !ok {
			return "", fmt.Errorf("%s (/output-style lists them)", why)
		}
		next = &s
		name = s.Name
	} else {
		name = "default"
	}
	file := filepath.Join(a.BaseDir, "config")
	value := name
	if next == nil {
		value = ""
	}
	if err := config.Set(file, config.KeyOutputStyle, value); err != nil {
		return "", err
	}
	a.style.active = next
	if a.Agent != nil {
		a.Agent.SetSystem(a.agentConfig().System)
	}
	return fmt.Sprintf("output style: %s (saved in %s); the next answer uses it", name, file), nil
}

// slashOutputStyle is /output-style [NAME].
func (a *App) slashOutputStyle(f []string) (SlashResult, bool, error) {
	if f[0] != "/output-style" {
		return SlashResult{}, false, nil
	}
	if len(f) == 1 {
		return SlashResult{Output: a.OutputStyles()}, true, nil
	}
	out, err := a.SetOutputStyle(strings.Join(f[1:], " "))
	if err != nil {
		return SlashResult{}, true, fmt.Errorf("/output-style: %w", err)
	}
	return SlashResult{Output: out}, true, nil
}
