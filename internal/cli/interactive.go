package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"
)

// runInteractive starts the terminal UI.
func runInteractive(ctx context.Context, cmd *cobra.Command, g *globals, stdio Stdio) error {
	base, err := baseDir()
	if err != nil {
		return err
	}
	d, err := detachable(g, base)
	if err != nil {
		return err
	}
	if !isTerminal(stdio.In) || !isTerminal(stdio.Out) {
		return usageError{errors.New("the interactive UI needs a terminal; use `synaps -p PROMPT` or `synaps chat` with pipes")}
	}
	if d {
		return runDetachable(ctx, cmd, g, base, stdio)
	}
	return startTUI(ctx, g, stdio)
}
