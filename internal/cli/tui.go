package cli

import (
	"context"

	"github.com/synaps-cli/synaps/internal/tui"
)

// startTUI runs the interactive terminal UI.
func startTUI(ctx context.Context, g *globals, stdio Stdio) error {
	return tui.Run(ctx, g.appOptions(), stdio.In, stdio.Out)
}
