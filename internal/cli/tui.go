package cli

import (
	"context"

	"github.com/synaps-cli/synaps/internal/tui"
)

// startTUI runs the interactive terminal UI.
func startTUI(ctx context.Context, g *globals, stdio Stdio) error {
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	return tui.Run(ctx, opts, stdio.In, stdio.Out)
}
