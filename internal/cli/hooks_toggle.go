package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
)

// hooksToggleCmd is `synaps hooks disable ID` and `enable ID`.
func hooksToggleCmd(stdio Stdio, f *hooksFlags, verb string) *cobra.Command {
	short := "Turn one hook off, by its id, leaving the rest of its plugin running (saved in config disabled_hooks)"
	if verb == "enable" {
		short = "Turn a disabled hook on again"
	}
	return &cobra.Command{
		Use:   verb + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		// Tab offers the ids this verb applies to: the running hooks to
		// disable, the disabled ones to enable.
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			o, err := f.options()
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			list, err := app.ListHooks(cmd.Context(), o, false)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			want := app.HookRunning
			if verb == "enable" {
				want = app.HookDisabled
			}
			var ids []string
			for _, h := range list.Hooks {
				if h.Status == want && h.Kind != "permission" {
					ids = append(ids, h.ID)
				}
			}
			return ids, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			path, err := app.SetHookDisabled(cmd.Context(), o, args[0], verb == "disable")
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "%sd %s (saved in %s); sessions started from now on use it (/hooks %s in a running one)\n", verb, args[0], path, verb+" "+args[0])
			return nil
		},
	}
}
