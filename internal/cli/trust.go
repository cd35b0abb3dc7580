package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/trust"
)

func newTrustCmd(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust a project (default: this directory) so what it ships loads",
		Long: `Trust a project (default: this directory). Until then synaps reads
nothing a project ships that could run code or change what runs: its
.synaps/plugins, .synaps/config (permission rules included), .synaps/mcp.json
and .mcp.json, .claude/settings.json (hooks and permissions), and its agents
and commands (.synaps/ and .claude/). --trust-project trusts it for one
run.

Trust is pinned to content: this records a digest of each hook
definition, command and agent file, MCP server entry and project plugin
directory, and lists them. One that changes later (a pulled branch edits
a hook or adds a command) is held back and named at the start of every
session until you run synaps trust again; the others keep loading.
docs/trust.md says more.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, _ := os.Getwd()
			if len(args) == 1 {
				dir = args[0]
			}
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			// A misspelt path was trusted as it was typed, and the
			// project meant stayed untrusted without a word.
			if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
				return usageError{fmt.Errorf("%s is not a directory; give the project's directory (synaps trust with no argument trusts this one)", dir)}
			}
			base, err := baseDir()
			if err != nil {
				return err
			}
			was, _ := plugin.IsTrusted(base, abs)
			before := trust.Evaluate(base, abs, was, false)
			items, err := app.TrustItems(base, abs)
			if err != nil {
				return err
			}
			if !was {
				fmt.Fprintf(stdio.Out, "trusted %s; its plugins, config, MCP servers, Claude settings, agents and commands load in new sessions\n", abs)
			} else if len(before.Held) == 0 {
				fmt.Fprintf(stdio.Out, "%s is already trusted; nothing changed since\n", abs)
			} else {
				fmt.Fprintf(stdio.Out, "%s is already trusted; approved what changed since\n", abs)
			}
			printApproved(stdio, before, items, was)
			return nil
		},
	}
}

// printApproved lists what `synaps trust` approved, marking what is new
// or changed since the last approval, so trusting is never blind.
func printApproved(stdio Stdio, before *trust.State, items []trust.Item, was bool) {
	if len(items) == 0 {
		fmt.Fprintln(stdio.Out, "  (it holds no plugins, hooks, commands, agents or MCP servers yet; what it adds later is held back until you trust it again)")
		return
	}
	for _, it := range items {
		mark := ""
		if was {
			if r := before.HeldReason(it.ID); r != "" {
				mark = " [" + string(r) + "]"
			}
		}
		fmt.Fprintf(stdio.Out, "  %s%s\n", it.Label(), mark)
	}
}
