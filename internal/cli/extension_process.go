package cli

import (
	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/demo"
)

// newExtensionProcessCmd runs a bundled extension (the demo's) as the
// extension process itself. Hidden: synaps starts it, users do not.
func newExtensionProcessCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "__extension NAME",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return demo.Run(args[0])
		},
	}
}
