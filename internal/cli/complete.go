package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/session"
)

// Shell completion of flag values and arguments (`synaps completion
// bash|zsh|fish|powershell` prints the script). Completion runs on every
// Tab, so it reads only files — config, session headers, plugin manifests —
// and never starts an extension or asks a model; anything it cannot read
// completes to nothing rather than to an error. It finds the base dir with
// config.BaseDir, not baseDir, which would create it on a Tab.

// wellKnownModels are offered for --model besides the configured model and
// the models of earlier sessions: the defaults synaps picks with an API key
// set (see app.DefaultModel) and the script model.
var wellKnownModels = []string{
	app.DefaultAnthropicModel + "\tAnthropic (ANTHROPIC_API_KEY)",
	app.DefaultOpenAIModel + "\tOpenAI or any compatible endpoint (OPENAI_API_KEY, OPENAI_BASE_URL)",
}

// completing reports whether args are a shell's completion request, the
// hidden command cobra's completion scripts run (`synaps __complete …`).
func completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// registerCompletions wires completion functions into the command tree
// built by newRoot. Commands are found by path, so the files that define
// them stay about what they do.
func registerCompletions(root *cobra.Command) {
	noFiles := cobra.ShellCompDirectiveNoFileComp
	flagValues := map[string]cobra.CompletionFunc{
		"model": completeModel,
		"resume": func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return sessionIDs(), noFiles
		},
		"effort":        cobra.FixedCompletions([]string{"off", "low", "medium", "high", "max"}, noFiles),
		"output-format": cobra.FixedCompletions([]string{"text", "json", "stream-json"}, noFiles),
	}
	// The session flags are each command's own (globals.addFlags), so
	// each command that has one gets its completion.
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, fn := range flagValues {
			if c.LocalNonPersistentFlags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)

	firstArg := func(values func(cmd *cobra.Command) []string) cobra.CompletionFunc {
		return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, noFiles
			}
			return values(cmd), noFiles
		}
	}
	sessions := firstArg(func(*cobra.Command) []string { return sessionIDs() })
	plugins := func(want func(p *plugin.Plugin) bool) cobra.CompletionFunc {
		return firstArg(func(*cobra.Command) []string { return pluginIDs(want) })
	}
	any := func(*plugin.Plugin) bool { return true }
	for path, fn := range map[string]cobra.CompletionFunc{
		"sessions show":        sessions,
		"sessions resume":      sessions,
		"extensions enable":    plugins(func(p *plugin.Plugin) bool { return p.Disabled }),
		"extensions disable":   plugins(func(p *plugin.Plugin) bool { return !p.Disabled }),
		"extensions uninstall": plugins(func(p *plugin.Plugin) bool { return p.Scope == plugin.ScopeUser }),
		"extensions approve":   plugins(func(p *plugin.Plugin) bool { return p.Scope == plugin.ScopeUser }),
		"extensions update":    plugins(func(p *plugin.Plugin) bool { return p.Scope == plugin.ScopeUser }),
		"extensions logs":      plugins(any),
		"extensions info":      plugins(any),
		"extensions config":    plugins(any),
	} {
		if cmd, _, err := root.Find(strings.Fields(path)); err == nil && cmd.ValidArgsFunction == nil {
			cmd.ValidArgsFunction = fn
		}
	}
}

// completeModel offers the configured model, the models of earlier
// sessions (extension models among them), the well-known ones, and script
// files: after "script:" the .jsonl files of the directory typed so far.
func completeModel(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if rest, ok := strings.CutPrefix(toComplete, "script:"); ok {
		return scriptFiles(rest), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	var out []string
	seen := map[string]bool{}
	add := func(name, desc string) {
		if name == "" || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, name+"\t"+desc)
	}
	if base, err := config.BaseDir(os.Getenv); err == nil {
		if cfg, err := config.Load(filepath.Join(base, "config")); err == nil {
			if m, ok := cfg.Get("model"); ok {
				add(m, "configured in "+cfg.Path)
			}
		}
		if infos, err := session.List(base); err == nil {
			for _, in := range infos {
				add(in.Model, "used in session "+in.ID)
			}
		}
	}
	for _, m := range wellKnownModels {
		name, desc, _ := strings.Cut(m, "\t")
		add(name, desc)
	}
	add("script:", "replay a JSONL script of assistant turns")
	return out, cobra.ShellCompDirectiveNoFileComp
}

// scriptFiles lists "script:PATH" for the directories and .jsonl files
// that complete prefix.
func scriptFiles(prefix string) []string {
	dir, _ := filepath.Split(prefix)
	entries, err := os.ReadDir(cmpDir(dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := dir + e.Name()
		if !strings.HasPrefix(name, prefix) || strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(filepath.Base(prefix), ".") {
			continue
		}
		switch {
		case e.IsDir():
			out = append(out, "script:"+name+string(filepath.Separator))
		case strings.HasSuffix(name, ".jsonl"):
			out = append(out, "script:"+name)
		}
	}
	return out
}

func cmpDir(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// sessionIDs lists saved sessions, newest first, each with its title.
func sessionIDs() []string {
	base, err := config.BaseDir(os.Getenv)
	if err != nil {
		return nil
	}
	infos, err := session.List(base)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(infos))
	for _, in := range infos {
		out = append(out, in.ID+"\t"+strings.Join(slices.DeleteFunc([]string{in.Time, in.Title}, func(s string) bool { return s == "" }), " · "))
	}
	return out
}

// pluginIDs lists the plugins (the user's and this project's) that want
// accepts, each with its description.
func pluginIDs(want func(*plugin.Plugin) bool) []string {
	base, err := config.BaseDir(os.Getenv)
	if err != nil {
		return nil
	}
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil {
		return nil
	}
	wd, _ := os.Getwd()
	plugins, err := plugin.Discover(plugin.DiscoverOptions{BaseDir: base, ProjectDir: wd, TrustProject: true, Disabled: cfg.List("disabled_plugins")})
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range plugins {
		if !want(p) {
			continue
		}
		desc := ""
		if p.Manifest != nil {
			desc = p.Manifest.Description
		}
		out = append(out, strings.TrimSuffix(p.ID+"\t"+desc, "\t"))
	}
	return out
}
