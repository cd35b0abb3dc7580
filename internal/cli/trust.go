package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
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
run.`,
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
			base, err := baseDir()
			if err != nil {
				return err
			}
			added, err := app.Trust(base, abs)
			if err != nil {
				return err
			}
			if added {
				fmt.Fprintf(stdio.Out, "trusted %s; its plugins, config, MCP servers, Claude settings, agents and commands load in new sessions\n", abs)
			} else {
				fmt.Fprintf(stdio.Out, "%s is already trusted\n", abs)
			}
			return nil
		},
	}
}
