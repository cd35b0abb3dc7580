package cli

import (
	"context"
	"errors"

	"github.com/synaps-cli/synaps/internal/session"

	"github.com/synaps-cli/synaps/internal/tui"
)

// startTUI runs the interactive terminal UI.
func startTUI(ctx context.Context, g *globals, stdio Stdio) error {
	if g.resume == pickSession {
		id, err := pickSessionID(ctx, stdio)
		if err != nil || id == "" {
			return err // esc: nothing to resume, nothing started
		}
		g.resume = id
	}
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	return tui.Run(ctx, opts, stdio.In, stdio.Out)
}

// pickSessionID lets the user choose a saved session (bare --resume).
func pickSessionID(ctx context.Context, stdio Stdio) (string, error) {
	base, err := baseDir()
	if err != nil {
		return "", err
	}
	infos, err := session.List(base)
	if err != nil {
		return "", err
	}
	if len(infos) == 0 {
		return "", errors.New("no saved sessions to resume")
	}
	return tui.Pick(ctx, infos, stdio.In, stdio.Out)
}
