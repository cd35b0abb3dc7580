package cli

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
)

// extApproveCmd is `synaps plugins approve ID`: pin an installed plugin
// to its files as they are now (after reviewing a change, or to pin one
// installed before synaps pinned plugins).
func extApproveCmd(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "approve ID",
		Short: "Pin an installed plugin to its files as they are now (accepts changes made since install)",
		Long: `approve records a digest of the plugin's files in the install record
(` + "$SYNAPS_BASE_DIR/" + plugin.PinsDir + `/ID.json). A plugin whose files change after
that is listed as modified, and with plugins.verify = strict it does not
start until it is approved again. A plugin installed before synaps pinned
plugins (listed as unpinned) is pinned by approving it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			id := args[0]
			if err := plugin.CheckID(id); err != nil {
				return usageError{err}
			}
			p := installedPlugin(base, id)
			if p == nil {
				return fmt.Errorf("no plugin %q is installed in %s; `synaps plugins list` shows the installed ones", id, filepath.Join(base, "plugins"))
			}
			before := plugin.CheckPin(base, p)
			rec, _ := plugin.ReadPin(base, id)
			src := plugin.PinSource{Kind: "approved"}
			if rec != nil {
				src = rec.Source
			}
			if src.Kind == "link" {
				src = plugin.PinSource{Kind: "dir", Location: rec.Source.Location}
			}
			r, err := plugin.Pin(base, p, "approve", src)
			if err != nil {
				return fmt.Errorf("%s: %w", id, err)
			}
			switch before.State {
			case plugin.PinModified:
				fmt.Fprintf(stdio.Out, "accepted the changes since install: %s\n", before.Summary())
			case plugin.PinPinned:
				fmt.Fprintln(stdio.Out, "its files were already as pinned")
			}
			fmt.Fprintf(stdio.Out, "approved %s: pinned to %s (%s)\n", id, plural.Count(r.FileCount(), "file"), shortDigest(r.Digest))
			return nil
		},
	}
}

// installedPlugin is the user plugin whose id is id, or nil.
func installedPlugin(base, id string) *plugin.Plugin {
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: base})
	for _, p := range plugins {
		if p.ID == id && p.Scope == plugin.ScopeUser {
			return p
		}
	}
	return nil
}

// shortDigest is a digest for a message: its kind and first 12 digits.
func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}

// extUpdateCmd is `synaps plugins update ID [SOURCE]`.
func extUpdateCmd(stdio Stdio) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "update ID [DIR|GIT-URL|NAME@MARKETPLACE]",
		Short: "Install a plugin's new version, after showing what it changes in what the plugin may do",
		Long: `update fetches the new version from where the plugin was installed from
(its install record), or from the source given, and compares it with the
installed one: permissions (both manifest dialects), extension hooks,
Claude Code hooks, sandbox paths and hosts, MCP servers, commands, what it
starts and which environment variables it receives. When any of that
changes it asks before installing (y/N); without a terminal it refuses
unless --yes is given. An update that changes none of it is installed
without asking. The new version is pinned as install pins.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			id, from := args[0], ""
			if err := plugin.CheckID(id); err != nil {
				return usageError{err}
			}
			if len(args) == 2 {
				from = args[1]
			}
			u, err := app.PrepareUpdate(cmd.Context(), base, id, from)
			if err != nil {
				return err
			}
			defer u.Close()
			oldV, newV := "-", "-"
			if u.Old.Manifest != nil && u.Old.Manifest.Version != "" {
				oldV = u.Old.Manifest.Version
			}
			if u.New.Manifest.Version != "" {
				newV = u.New.Manifest.Version
			}
			fmt.Fprintf(stdio.Out, "update %s %s → %s from %s\n", id, oldV, newV, u.Source.Location)
			if u.Record != nil && u.Record.Source.Commit != "" && u.Source.Commit != "" {
				fmt.Fprintf(stdio.Out, "  commit %s → %s\n", u.Record.Source.Commit, u.Source.Commit)
			}
			if n := len(u.Files); n > 0 {
				fmt.Fprintf(stdio.Out, "  files: %s\n", (plugin.PinCheck{Changed: u.Files}).Summary())
			} else {
				fmt.Fprintln(stdio.Out, "  files: the same")
			}
			changes := append(prefixed("+ ", u.Added), prefixed("- ", u.Removed)...)
			if len(changes) == 0 {
				fmt.Fprintln(stdio.Out, "what it may do: unchanged")
			} else {
				fmt.Fprintln(stdio.Out, "what it may do changes:")
				for _, c := range changes {
					fmt.Fprintln(stdio.Out, "  "+printableLine(c))
				}
				apply, err := confirmUpdate(stdio, isTerminal(stdio.In), yes, id, changes)
				if !apply {
					return err
				}
			}
			res, err := u.Apply(cmd.Context(), base, app.InstallOptions{Output: stdio.Out})
			if res != nil {
				for _, w := range res.Warnings {
					fmt.Fprintln(stdio.Err, "warning:", w)
				}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "updated %s to %s in %s\n", id, newV, res.Dir)
			if res.Pin != nil {
				fmt.Fprintf(stdio.Out, "pinned to %s (%s)\n", plural.Count(res.Pin.FileCount(), "file"), shortDigest(res.Pin.Digest))
			}
			fmt.Fprintln(stdio.Out, "It loads in new sessions; in a running one, type /extensions reload.")
			return nil
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "apply without asking, even when the update changes what the plugin may do")
	return cmd
}

func prefixed(p string, items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = p + s
	}
	return out
}

// confirmUpdate decides whether an update that changes what plugin id
// may do is applied: --yes applies it; on a terminal the user is asked
// (y/N, anything but y or yes declines, and so does end of input);
// without one it is refused with an error naming the changes.
func confirmUpdate(stdio Stdio, terminal, yes bool, id string, changes []string) (apply bool, err error) {
	switch {
	case yes:
		return true, nil
	case terminal:
		fmt.Fprintf(stdio.Out, "apply this update? [y/N] ")
		line, _ := bufio.NewReader(stdio.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
			return true, nil
		}
		fmt.Fprintf(stdio.Out, "not updated; %s stays as it was\n", id)
		return false, nil
	}
	return false, exitError{code: ExitError, msg: fmt.Sprintf("not updated: the update changes what %s may do (%s); run it on a terminal to be asked, or pass --yes to accept", id, strings.Join(changes, "; "))}
}
