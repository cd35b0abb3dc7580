package cli

import (
	"context"
	"errors"
)

// runInteractive starts the terminal UI.
func runInteractive(ctx context.Context, g *globals, stdio Stdio) error {
	if !isTerminal(stdio.In) || !isTerminal(stdio.Out) {
		return usageError{errors.New("the interactive UI needs a terminal; use `synaps -p PROMPT` or `synaps chat` with pipes")}
	}
	return startTUI(ctx, g, stdio)
}
