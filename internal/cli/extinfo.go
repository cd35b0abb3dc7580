package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// extInfoCmd is `synaps extensions info ID`: everything list knows about
// one plugin, with each warning and error in full — the place a
// "loaded (1 warning)" in the list points to.
func extInfoCmd(stdio Stdio) *cobra.Command {
	var asJSON, trust bool
	cmd := &cobra.Command{
		Use:   "info ID",
		Short: "Start one plugin's extension and show its status, tools, hooks and every warning",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if err := plugin.CheckID(id); err != nil {
				return usageError{err}
			}
			h, base, err := startHost(cmd.Context(), trust, stdio.Err)
			if err != nil {
				return err
			}
			waitInfo(cmd.Context(), h)
			sts := app.CheckPins(base, h.Statuses())
			h.Shutdown()
			var st *extension.Status
			for i := range sts {
				if sts[i].ID == id {
					st = &sts[i]
				}
			}
			if st == nil {
				return noPlugin(id, config.PluginsDir(base), statusIDs(sts))
			}
			if asJSON {
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(st); err != nil {
					return err
				}
			} else {
				printInfo(stdio, st, filepath.Join(base, "extensions", "logs", id+".log"))
				if p := plugin.LoadPlugin(filepath.Base(st.Dir), st.Dir, st.Scope); p.Err == nil && st.State != extension.StateUntrusted {
					printSupport(stdio, p) // another agent's plugin: what each part becomes
				}
				printSandbox(stdio, base, st)
			}
			return failedPlugins([]extension.Status{*st})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&trust, "trust-project", false, "include this project's .synaps/plugins")
	return cmd
}

func printInfo(stdio Stdio, st *extension.Status, logPath string) {
	head := st.ID
	if st.Version != "" {
		head += " " + st.Version
	}
	if st.Description != "" {
		head += " — " + st.Description
	}
	fmt.Fprintln(stdio.Out, head)
	w := tabwriter.NewWriter(stdio.Out, 0, 0, 1, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(w, "  %s:\t%s\n", k, v) }
	row("status", app.StatusLabel(*st))
	row("dir", fmt.Sprintf("%s (%s)", st.Dir, st.Scope))
	if pin := st.Pin; pin != nil {
		row("pin", strings.TrimSuffix(string(pin.State)+": "+pin.Summary()+pin.Problem, ": "))
	}
	if len(st.Parts) > 0 {
		parts := make([]string, len(st.Parts))
		for i, p := range st.Parts {
			parts[i] = string(p)
		}
		row("parts", strings.Join(parts, ", "))
	}
	if len(st.Commands) > 0 {
		row("commands", strings.Join(st.Commands, ", "))
	}
	if len(st.Settings) > 0 {
		row("settings", strings.Join(st.Settings, ", ")+" (/settings, synaps extensions config "+st.ID+")")
	}
	if st.Sidecar != "" {
		row("sidecar", st.Sidecar)
	}
	row("tools", orDash(strings.Join(st.Tools, ", ")))
	row("hooks", orDash(strings.Join(st.Hooks, ", ")))
	if st.Restarts > 0 {
		row("restarts", fmt.Sprint(st.Restarts))
	}
	if st.Error != "" {
		row("error", st.Error)
	}
	if st.LastCrash != "" {
		row("last crash", st.LastCrash)
	}
	for _, warn := range st.Warnings {
		row("warning", warn)
	}
	// Only an extension process writes a log; a plugin of skills,
	// commands or Claude hooks has none to point to.
	if len(st.Parts) == 0 || slices.Contains(st.Parts, plugin.PartExtension) {
		row("log", logPath)
	} else {
		row("log", "none: it runs no extension process (its Claude hooks' messages are shown in the session)")
	}
	w.Flush()
}

// printSandbox says what the plugin's processes may do (docs/sandbox.md).
func printSandbox(stdio Stdio, base string, st *extension.Status) {
	c, e, err := sandboxSettingsIn(base)
	if err != nil {
		return
	}
	p := plugin.LoadPlugin(filepath.Base(st.Dir), st.Dir, st.Scope)
	if p.Manifest == nil {
		return
	}
	fmt.Fprintln(stdio.Out, "  sandbox:")
	for _, l := range app.PluginSandbox(c, base, e.Project, p, e.Getenv) {
		fmt.Fprintln(stdio.Out, "    "+l)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
