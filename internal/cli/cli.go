// Package cli parses synaps's command line and calls into the rest of the
// program. It holds flags and wording only; the work is done elsewhere.
package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X .../internal/cli.Version=…".
var Version = "0.1.0-dev"

// Stdio are the streams a command reads and writes.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main runs synaps with args (without the program name) and returns the
// process exit code: 0 success, 1 failure, 2 usage error.
func Main(ctx context.Context, args []string, stdio Stdio) int {
	root := newRoot(stdio)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stdio.Err, "synaps:", err)
		return 1
	}
	return 0
}

func newRoot(stdio Stdio) *cobra.Command {
	root := &cobra.Command{
		Use:           "synaps",
		Short:         "A terminal agent runtime with process-based extensions",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the synaps version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(stdio.Out, "synaps %s (%s, %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	})
	return root
}
