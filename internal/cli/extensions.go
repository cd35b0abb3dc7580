package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

func newExtensionsCmd(stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "extensions",
		Aliases: []string{"ext", "extension", "plugins", "plugin"},
		Short:   "Manage plugins and their extensions",
		Long: `Plugins live in ~/.synaps-cli/plugins/<id>/ (or $SYNAPS_BASE_DIR/plugins)
and, for trusted projects, in ./.synaps/plugins/<id>/. Each has a manifest at
.synaps-plugin/plugin.json; one with an "extension" object starts a process.`,
	}
	cmd.AddCommand(
		extListCmd(stdio, "list", "Start every extension and list plugins with their status"),
		extListCmd(stdio, "reload", "Start every extension afresh and report what loaded"),
		extInstallCmd(stdio),
		extUpdateCmd(stdio),
		extApproveCmd(stdio),
		extUninstallCmd(stdio),
		extEnableCmd(stdio, "enable"),
		extEnableCmd(stdio, "disable"),
		extValidateCmd(stdio),
		extInfoCmd(stdio),
		extConfigCmd(stdio),
		marketplaceCmd(stdio),
		extLogsCmd(stdio),
		extTestCmd(stdio),
		extNewCmd(stdio),
		extCacheCmd(stdio),
	)
	return cmd
}

// startHost starts every extension of the user's plugins (and the trusted
// project's) for a one-off look.
// Config warnings (a setting that would do nothing) go to errw.
func startHost(ctx context.Context, trustProject bool, errw io.Writer) (*extension.Host, string, error) {
	base, err := baseDir()
	if err != nil {
		return nil, "", err
	}
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil {
		return nil, "", err
	}
	for _, w := range cfg.Check() {
		fmt.Fprintln(errw, "warning: "+w)
	}
	wd, _ := os.Getwd()
	h := extension.NewHost(extension.Options{BaseDir: base, ProjectDir: wd, TrustProject: trustProject, Config: cfg, Version: Version, PartHooks: app.ClaudeHookNames})
	if err := h.Start(ctx); err != nil {
		return nil, "", err
	}
	return h, base, nil
}

func extListCmd(stdio Stdio, use, short string) *cobra.Command {
	var asJSON, trust, verbose bool
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `.

A plugin that loaded with warnings (a hook refused for a missing
permission, a manifest note) shows as "loaded (1 warning)"; -v prints each
warning, as does ` + "`synaps extensions info ID`" + `. The exit code is 1 when any
plugin failed to load, so a script or CI job notices.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, base, err := startHost(cmd.Context(), trust, stdio.Err)
			if err != nil {
				return err
			}
			waitInfo(cmd.Context(), h)
			sts := app.CheckPins(base, h.Statuses())
			warnings := h.Warnings()
			h.Shutdown()
			for _, w := range warnings {
				fmt.Fprintln(stdio.Err, "warning: "+w)
			}
			if asJSON {
				if sts == nil {
					sts = []extension.Status{}
				}
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(sts); err != nil {
					return err
				}
			} else {
				if use == "reload" {
					fmt.Fprintf(stdio.Out, "reloaded %s\n", plural.Count(len(sts), "plugin"))
				}
				fmt.Fprint(stdio.Out, app.FormatStatuses(sts, verbose))
				wd, _ := os.Getwd()
				fmt.Fprint(stdio.Out, app.ListLSP(base, wd, trust))
			}
			return failedPlugins(sts)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every warning")
	cmd.Flags().BoolVar(&trust, "trust-project", false, "include this project's .synaps/plugins")
	return cmd
}

// failedPlugins ends a listing with exit code 1 when a plugin failed to
// load; the listing above already says why.
func failedPlugins(sts []extension.Status) error {
	var failed []string
	for _, st := range sts {
		if st.State == extension.StateFailed || st.State == extension.StatePartial {
			failed = append(failed, st.ID)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return exitError{code: ExitError, msg: fmt.Sprintf("%s failed to load: %s (the reason is above; `synaps extensions logs ID` shows its log)", plural.Count(len(failed), "plugin"), strings.Join(failed, ", "))}
}

func extInstallCmd(stdio Stdio) *cobra.Command {
	var link, force bool
	var options []string
	cmd := &cobra.Command{
		Use:   "install DIR|GIT-URL|NAME@MARKETPLACE",
		Short: "Validate a plugin and copy (or --link) it into the plugins directory",
		Long: `install checks the plugin's manifest first and writes nothing if it is
invalid. A directory is copied without following symlinks that point out
of it; --link makes a symlink instead, for developing a plugin in place.
A git URL is cloned (git must be installed). NAME@MARKETPLACE installs a
plugin of a marketplace added with 'synaps plugins marketplace add'.
Claude Code plugins (.claude-plugin/plugin.json), Codex plugins
(.codex-plugin/plugin.json), Open Plugins (.plugin/plugin.json) and Gemini
CLI extensions (gemini-extension.json) install as they are; for another
agent's plugin, install prints what each part becomes (docs/plugins.md).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			var res *app.Installed
			opts := app.InstallOptions{Link: link, Force: force, Output: stdio.Out}
			if isMarketRef(args[0]) {
				opts.Link = false
				res, err = app.InstallFromMarketplace(cmd.Context(), base, args[0], opts)
			} else {
				res, err = app.Install(cmd.Context(), base, args[0], opts)
			}
			var setupErr *app.SetupError
			if errors.As(err, &setupErr) && res != nil {
				for _, w := range res.Warnings {
					fmt.Fprintln(stdio.Err, "warning:", w)
				}
				fmt.Fprintf(stdio.Out, "installed %s %s into %s\n", res.ID, res.Version, res.Dir)
				return exitError{code: ExitError, msg: fmt.Sprintf("%s: %v", res.ID, err)}
			}
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				fmt.Fprintln(stdio.Err, "warning:", w)
			}
			// The manifest is valid, but the extension may still be unable
			// to start here; say so now rather than at the next session.
			if p := plugin.LoadPlugin(res.ID, res.Dir, plugin.ScopeUser); p.Err == nil {
				if err := extension.CheckLaunch(p, os.Getenv); err != nil {
					fmt.Fprintf(stdio.Err, "warning: installed, but it will not start here until this is fixed: %v\n", err)
				}
			}
			how := "installed"
			if link {
				how = "linked"
			}
			fmt.Fprintf(stdio.Out, "%s %s %s into %s\n", how, res.ID, res.Version, res.Dir)
			for _, d := range res.Dependencies {
				fmt.Fprintf(stdio.Out, "installed its dependency %s\n", d)
			}
			if p := plugin.LoadPlugin(res.ID, res.Dir, plugin.ScopeUser); p.Err == nil {
				printSupport(stdio, p)
			}
			if err := installOptions(stdio, base, res.ID, options); err != nil {
				return err
			}
			if res.Pin != nil && res.Pin.Digest != "" {
				fmt.Fprintf(stdio.Out, "pinned to its content: %s (%s); `synaps plugins list` shows it as modified if they change\n", plural.Count(res.Pin.FileCount(), "file"), shortDigest(res.Pin.Digest))
			}
			fmt.Fprintln(stdio.Out, "It loads in new sessions; in a running one, type /extensions reload.")
			return nil
		},
	}
	cmd.Flags().BoolVar(&link, "link", false, "symlink the directory instead of copying it")
	cmd.Flags().BoolVar(&force, "force", false, "replace an installed plugin of the same id")
	cmd.Flags().StringArrayVar(&options, "config", nil, "set one of the plugin's userConfig options, `KEY=VALUE` (repeatable)")
	return cmd
}

func extUninstallCmd(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "uninstall ID",
		Short: "Remove an installed plugin",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			if err := plugin.CheckID(args[0]); err != nil {
				return usageError{err}
			}
			if err := app.Uninstall(base, args[0]); err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "uninstalled %s\n", args[0])
			if deps := app.Dependents(base, args[0]); len(deps) > 0 {
				verb := "depends"
				if len(deps) > 1 {
					verb = "depend"
				}
				fmt.Fprintf(stdio.Err, "warning: %s %s on %s and may not work until it is installed again (synaps plugins install %s …)\n", strings.Join(deps, ", "), verb, args[0], args[0])
			}
			return nil
		},
	}
}

func extEnableCmd(stdio Stdio, verb string) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " ID",
		Short: strings.ToUpper(verb[:1]) + verb[1:] + " a plugin (saved in the config's disabled_plugins)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			id := args[0]
			if err := plugin.CheckID(id); err != nil {
				return usageError{err}
			}
			wd, _ := os.Getwd()
			plugins, err := plugin.Discover(plugin.DiscoverOptions{BaseDir: base, ProjectDir: wd, TrustProject: true})
			if err != nil {
				return err
			}
			known := false
			for _, p := range plugins {
				known = known || p.ID == id
			}
			if !known && verb == "disable" {
				return noPlugin(id, filepath.Join(base, "plugins"), idsOf(plugins))
			}
			// Enabling an id that is neither installed nor disabled did
			// nothing and said "enabled": a misspelt id looked fixed. One
			// still in disabled_plugins after its plugin went is removed.
			if !known && verb == "enable" {
				cfg, err := config.Load(filepath.Join(base, "config"))
				if err != nil {
					return err
				}
				if !slices.Contains(cfg.List(config.KeyDisabledPlugins), id) {
					return fmt.Errorf("no plugin %q in %s, and %s does not disable it; `synaps extensions list` shows the installed ones", id, filepath.Join(base, "plugins"), cfg.Path)
				}
			}
			if err := app.SetDisabled(base, id, verb == "disable"); err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "%sd %s\n", verb, id)
			return nil
		},
	}
}

func extValidateCmd(stdio Stdio) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate DIR",
		Short: "Check a plugin's manifest, permissions and launch command without starting it",
		Long: `validate reads DIR/.synaps-plugin/plugin.json (or another agent's
manifest: .claude-plugin/, .codex-plugin/, .plugin/plugin.json or
gemini-extension.json) and checks every field, the permissions of the
hooks it declares, its Claude Code hooks files, and that its extension could
start here: the command is on PATH (or exists in the plugin), and the
script an interpreter runs (python3 main.py) exists. It lists the
environment variables — secrets above all — the extension will receive,
and whether each is set now; values are never printed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			if err := notAFile(args[0], "validate"); err != nil {
				return err
			}
			p := plugin.LoadPlugin(filepath.Base(dir), dir, plugin.ScopeUser)
			var errs []string
			var claudeEvents []string
			if err := p.LoadErr(); err != nil {
				errs = strings.Split(err.Error(), "\n")
			} else if err := extension.CheckLaunch(p, os.Getenv); err != nil {
				errs = []string{err.Error()}
			} else {
				// Claude Code hooks are read as a session reads them.
				events, warnings, err := app.CheckClaudeHooks(p)
				claudeEvents = events
				p.Warnings = append(p.Warnings, warnings...)
				if err != nil {
					errs = []string{err.Error()}
				}
				// Language servers are read as a session reads them.
				for _, err := range app.CheckLSP(p) {
					errs = append(errs, err.Error())
				}
			}
			inputs := plugin.EnvInputs(p, os.Getenv, builtin.LooksSecret)
			if asJSON {
				warnings := p.Warnings
				if warnings == nil {
					warnings = []string{}
				}
				out := map[string]any{"dir": dir, "valid": len(errs) == 0, "warnings": warnings}
				if len(errs) > 0 {
					out["errors"] = errs
				}
				if p.Manifest != nil {
					out["name"], out["version"], out["format"] = p.Manifest.Name, p.Manifest.Version, p.Manifest.Format
					if support := p.Support(); len(support) > 0 {
						out["support"] = support
					}
				}
				if inputs == nil {
					inputs = []plugin.EnvInput{}
				}
				out["receives"] = inputs
				if lines := validateSandbox(p); len(lines) > 0 {
					out["sandbox"] = lines
				}
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(out); err != nil {
					return err
				}
				if len(errs) > 0 {
					return exitError{code: ExitError}
				}
				return nil
			}
			for _, w := range p.Warnings {
				fmt.Fprintln(stdio.Out, "warning:", w)
			}
			if len(errs) > 0 {
				fmt.Fprintln(stdio.Out, strings.Join(errs, "\n"))
				return exitError{code: ExitError, msg: fmt.Sprintf("%s is not a valid plugin", args[0])}
			}
			m := p.Manifest
			if n := len(p.Warnings); n > 0 {
				// Not a bare "ok": something above is skipped or ignored.
				fmt.Fprintf(stdio.Out, "ok: %s, with %s above\n", strings.TrimSpace(m.Name+" "+m.Version), plural.Count(n, "warning"))
			} else {
				fmt.Fprintf(stdio.Out, "ok: %s\n", strings.TrimSpace(m.Name+" "+m.Version))
			}
			if m.Extension != nil {
				launch := m.Extension.EntryPoint
				if launch == "" {
					launch = strings.Join(append([]string{m.Extension.Command}, m.Extension.Args...), " ")
				}
				fmt.Fprintf(stdio.Out, "  starts: %s\n  permissions: %s\n", launch, orDash(strings.Join(m.Extension.PermissionList, ", ")))
				for _, s := range m.Extension.Hooks {
					fmt.Fprintf(stdio.Out, "  hook: %s%s\n", s.Hook, map[bool]string{true: " (tool " + s.Tool + ")", false: ""}[s.Tool != ""])
				}
				printEnvInputs(stdio, inputs)
			} else {
				var parts []string
				for _, part := range p.Parts() {
					parts = append(parts, string(part))
				}
				fmt.Fprintf(stdio.Out, "  no extension process; brings: %s\n", orDash(strings.Join(parts, ", ")))
			}
			if len(claudeEvents) > 0 {
				fmt.Fprintf(stdio.Out, "  Claude hooks: %s\n", strings.Join(claudeEvents, ", "))
			}
			printSupport(stdio, p)
			if lines := validateSandbox(p); len(lines) > 0 {
				fmt.Fprintln(stdio.Out, "  sandbox:")
				for _, l := range lines {
					fmt.Fprintln(stdio.Out, "    "+l)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// validateSandbox is what the plugin's processes may do once
// installed (sandbox.PluginSummary), nil when it cannot be said (no
// manifest, no base directory).
func validateSandbox(p *plugin.Plugin) []string {
	if p.Manifest == nil {
		return nil
	}
	base, err := baseDir()
	if err != nil {
		return nil
	}
	c, e, err := sandboxSettingsIn(base)
	if err != nil {
		return nil
	}
	return app.PluginSandbox(c, base, e.Project, p, e.Getenv)
}

// printEnvInputs says which of the user's environment variables the
// extension will receive; a reviewer reads this before installing.
func printEnvInputs(stdio Stdio, inputs []plugin.EnvInput) {
	if len(inputs) == 0 {
		fmt.Fprintln(stdio.Out, "  receives: no variables from your environment beyond PATH, HOME, LANG, LC_ALL, TERM, TMPDIR, XDG_RUNTIME_DIR")
		return
	}
	fmt.Fprintln(stdio.Out, "  receives from your environment (values are not shown):")
	for _, in := range inputs {
		how := "in its environment (extension.env)"
		if in.Via != "extension.env" {
			how = "as a config value in initialize (" + in.Via + ")"
		}
		state := "not set here"
		if in.Set {
			state = "set here"
		}
		kind := ""
		if in.Credential {
			kind = "secret "
		}
		fmt.Fprintf(stdio.Out, "    %s%s — %s, %s\n", kind, in.Name, how, state)
	}
}

func extLogsCmd(stdio Stdio) *cobra.Command {
	var lines int
	cmd := &cobra.Command{
		Use:   "logs ID",
		Short: "Print an extension's captured stderr and synaps's notes about it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			if err := plugin.CheckID(args[0]); err != nil {
				return usageError{err}
			}
			if lines < 0 {
				return usageError{fmt.Errorf("--lines %d: give how many of the last lines to print, or 0 for all", lines)}
			}
			path := filepath.Join(base, "extensions", "logs", args[0]+".log")
			data, err := os.ReadFile(path)
			if errors.Is(err, os.ErrNotExist) {
				if p := plugin.LoadPlugin(args[0], filepath.Join(config.PluginsDir(base), args[0]), plugin.ScopeUser); p.Err == nil && p.Manifest != nil && p.Manifest.Extension == nil && p.ExtensionErr == nil {
					return fmt.Errorf("%s has no log: it runs no extension process (it brings %s), and only an extension's stderr and synaps's notes about it are logged", args[0], partList(p.Parts()))
				}
				// An id no plugin has (a typo) is not "yet" to run.
				ids := pluginIDs(func(*plugin.Plugin) bool { return true })
				for i, id := range ids {
					ids[i], _, _ = strings.Cut(id, "\t")
				}
				if !slices.Contains(ids, args[0]) {
					return noPlugin(args[0], config.PluginsDir(base), ids)
				}
				return fmt.Errorf("no log for %q yet (%s); it is written once the extension has run", args[0], path)
			}
			if err != nil {
				return err
			}
			// The lines before the last rotation come first.
			if older, err := os.ReadFile(path + ".1"); err == nil {
				data = append(older, data...)
			}
			all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
			if lines > 0 && len(all) > lines {
				all = all[len(all)-lines:]
			}
			fmt.Fprintln(stdio.Out, strings.Join(all, "\n"))
			return nil
		},
	}
	cmd.Flags().IntVarP(&lines, "lines", "n", 100, "how many of the last lines to print (0: all, the rotated <id>.log.1 included)")
	return cmd
}

// isMarketRef reports whether an install argument is NAME@MARKETPLACE:
// no path, no URL, and no such directory.
func isMarketRef(arg string) bool {
	name, market, ok := strings.Cut(arg, "@")
	if !ok || name == "" || market == "" || strings.ContainsAny(arg, "/\\:") {
		return false
	}
	_, err := os.Stat(arg)
	return err != nil
}

// marketplaceCmd is `synaps plugins marketplace add|list`.
func marketplaceCmd(stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "marketplace",
		Short: "Add and list plugin marketplaces (Claude Code's .claude-plugin/marketplace.json)",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "add DIR|GIT-URL",
		Short: "Add a marketplace: its plugins install with 'synaps plugins install NAME@MARKETPLACE'",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			m, err := app.AddMarketplace(cmd.Context(), base, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "added marketplace %s (%s)\n", printableLine(m.Name), plural.Count(len(m.Plugins), "plugin"))
			printMarketEntries(stdio, m)
			return nil
		},
	}, &cobra.Command{
		Use:   "list",
		Short: "List the marketplaces added and their plugins",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			ms, problems := app.Marketplaces(base)
			for _, p := range problems {
				fmt.Fprintln(stdio.Err, "warning:", agent.Printable(p))
			}
			if len(ms) == 0 {
				fmt.Fprintln(stdio.Out, "no marketplaces; add one with `synaps plugins marketplace add DIR|GIT-URL`")
			}
			for _, m := range ms {
				fmt.Fprintf(stdio.Out, "%s (%s)\n", printableLine(m.Name), plural.Count(len(m.Plugins), "plugin"))
				printMarketEntries(stdio, m)
			}
			return nil
		},
	})
	return cmd
}

// printMarketEntries lists a marketplace's plugins, one a line; their
// names and descriptions are the marketplace author's text, printed
// without its escape sequences.
func printMarketEntries(stdio Stdio, m *app.Marketplace) {
	for _, p := range m.Plugins {
		fmt.Fprintf(stdio.Out, "  %s@%s  %s\n", printableLine(p.Name), printableLine(m.Name), printableLine(p.Description))
	}
}

// partList names a plugin's parts for a message ("claude-hooks, skills"),
// or "nothing" when it has none.
func partList(parts []plugin.Part) string {
	if len(parts) == 0 {
		return "nothing"
	}
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// printSupport prints, for another agent's plugin, what each part
// becomes in synaps: supported, degraded (how) or refused (why).
func printSupport(stdio Stdio, p *plugin.Plugin) {
	if p.Manifest == nil || p.Manifest.Format == plugin.FormatSynaps {
		return
	}
	file := p.Manifest.File
	if rel, err := filepath.Rel(p.Dir, file); err == nil {
		file = rel
	}
	fmt.Fprintf(stdio.Out, "  format: %s (%s)\n", p.Manifest.Format.Title(), file)
	if support := p.Support(); len(support) > 0 {
		fmt.Fprint(stdio.Out, plugin.FormatSupport(support))
	}
}
