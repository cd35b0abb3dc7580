package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
)

func newChatCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "chat",
		Short: "Line-oriented session on stdin/stdout, for pipes and scripts",
		Long: `chat reads one message per line from stdin and prints the answer, tool
calls and their results as plain text. Lines starting with / are slash
commands (/help lists them). It ends at end of input or /quit.

Confirm requests from extensions are asked on the terminal; with piped
input there is nobody to ask, so they are refused unless
--auto-approve-confirms is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runChat(cmd.Context(), g, stdio)
		},
	}
}

func runChat(ctx context.Context, g *globals, stdio Stdio) error {
	lines := bufio.NewScanner(stdio.In)
	lines.Buffer(make([]byte, 0, 64<<10), 4<<20)
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	r := &renderer{out: stdio.Out, color: colorOn(stdio.Out)}
	opts.OnEvent = r.event
	if opts.Confirmer == nil && isTerminal(stdio.In) {
		opts.Confirmer = &lineConfirmer{out: stdio.Out, lines: lines}
	}
	a, err := app.Open(ctx, opts)
	if err != nil {
		return err
	}
	defer a.Close(context.WithoutCancel(ctx))
	for _, n := range a.Notes {
		fmt.Fprintln(stdio.Out, "ℹ "+n)
	}
	if n := app.UntrustedCount(a.Statuses()); n > 0 {
		fmt.Fprintf(stdio.Out, "ℹ this project has %d plugin(s) in .synaps/plugins that are not loaded; run `synaps trust` to trust the project\n", n)
	}
	var failed bool
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" {
			continue
		}
		if app.IsSlash(line) {
			res, err := a.Slash(ctx, line)
			if err != nil {
				fmt.Fprintln(stdio.Out, "error:", err)
				continue
			}
			if res.Output != "" {
				fmt.Fprint(stdio.Out, strings.TrimRight(res.Output, "\n")+"\n")
			}
			if res.Quit {
				return nil
			}
			continue
		}
		// Ctrl-C cancels the turn, not the session.
		turnCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
		err := a.Agent.Send(turnCtx, line)
		stop()
		r.endText()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !errors.Is(err, context.Canceled) {
				fmt.Fprintln(stdio.Out, "error:", err)
				failed = true
			}
		}
	}
	if failed {
		return exitError{code: ExitError}
	}
	return lines.Err()
}
