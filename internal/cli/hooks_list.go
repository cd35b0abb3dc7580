package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
)

// hooksListCmd is `synaps hooks` (also `synaps hooks list`): every hook
// of this directory in chain order.
func hooksListCmd(stdio Stdio, f *hooksFlags) *cobra.Command {
	var asJSON, start bool
	run := func(cmd *cobra.Command, _ []string) error {
		o, err := f.options()
		if err != nil {
			return err
		}
		list, err := app.ListHooks(cmd.Context(), o, start)
		if err != nil {
			return err
		}
		if asJSON {
			enc := json.NewEncoder(stdio.Out)
			enc.SetIndent("", "  ")
			return enc.Encode(list)
		}
		_, err = fmt.Fprint(stdio.Out, app.FormatHooks(list))
		return err
	}
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "List every hook that runs in this directory, in chain order; disable or enable one",
		Long: `hooks lists, event by event, every link of the hook chain a session in this
directory runs, in the order it runs them: extension hooks, Claude Code hooks
of plugins (hooks/hooks.json) and of the settings files (user, project,
local), and for before_tool_call the permission rules and mode after them.
Each has a stable id, its matcher, the file it comes from, its status
(running, disabled, skipped or failed, and why), its timeout and its failure
policy. Nothing is started: an extension's hooks come from its manifest (one
that subscribes at initialize holds a place for every hook its permissions
allow); --start starts the extensions to show what they subscribe to.

disable ID and enable ID turn one hook off and on again (config
disabled_hooks), leaving the rest of its plugin running.

docs/hooks-debugging.md describes the --json schema.`,
		Example: `  synaps hooks
  synaps hooks --json | jq '.hooks[] | select(.status != "running")'
  synaps hooks disable ext:policy-guard/before_tool_call
  synaps hooks enable claude:project/PreToolUse/0`,
		Args: unknownSubcommand,
		RunE: run,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON (schema: docs/hooks-debugging.md)")
	cmd.Flags().BoolVar(&start, "start", false, "start the extensions (and stop them) to list what they subscribe to at initialize")
	list := &cobra.Command{Use: "list", Short: "List the hooks (same as synaps hooks)", Args: cobra.NoArgs, RunE: run}
	list.Flags().AddFlagSet(cmd.Flags())
	cmd.AddCommand(list)
	return cmd
}
