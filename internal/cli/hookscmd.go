package cli

import "github.com/spf13/cobra"

// newHooksCmd is `synaps hooks`: the hook chain of this directory, seen
// and tested. (The listing and disable/enable subcommands live in their
// own file; this group only gathers them.)
func newHooksCmd(g *globals, stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "See and test the hook chain that judges this directory's tool calls",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newHooksTestCmd(g, stdio))
	return cmd
}
