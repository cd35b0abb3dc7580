package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/rpc"
)

// newRPCCmd is `synaps rpc`: one session driven by a program over line
// JSON on stdio (docs/rpc.md). stdout carries frames only; notes go to
// stderr.
func newRPCCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "rpc",
		Short: "Drive a session with line-JSON commands on stdin, events on stdout (for bots and bridges)",
		Long: `synaps rpc opens one session (new, or --continue / --resume ID) and
speaks line JSON on stdio: a ready event first, then one command per
stdin line (prompt, follow_up, abort, compact, new_session, get_messages,
set_model, get_available_models, get_session_stats, get_state, shutdown)
and one event per stdout line (message_update, agent_end, response,
error …). The shapes are SynapsCLI's rpc protocol version 1; docs/rpc.md
describes them and docs/rpc.schema.json is their JSON schema.

A follow_up sent while a turn runs steers that turn: the text joins it
at the next model request. A frame over 1 MiB or one that is not a
command gets an error event; rpc goes on. It ends at shutdown or the end
of stdin, with the session saved (exit 0).

Nobody is there to answer a confirm or a permission question: they are
refused unless allowed (--auto-approve-confirms, --permission-mode,
--allowedTools).`,
		Example: `  printf '%s\n' '{"type":"prompt","id":"1","message":"what does this repo do?"}' | synaps rpc
  synaps rpc --resume 20260101-120000-ab12cd
  synaps rpc --continue 20260101-120000-ab12cd   (SynapsCLI's spelling of --resume)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// SynapsCLI's bridges start `synaps rpc --continue ID`: there
			// --continue takes the session; here it is --resume's.
			if len(args) == 1 {
				if !g.cont || g.resume != "" {
					return usageError{fmt.Errorf("rpc takes no arguments but %q; to resume a session give --resume ID (or --continue ID)", args[0])}
				}
				g.cont, g.resume = false, args[0]
			}
			ignoreBrokenPipe()
			return runRPC(cmd.Context(), g, stdio)
		},
	}
}

func runRPC(ctx context.Context, g *globals, stdio Stdio) error {
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	r := &renderer{out: stdio.Err, color: colorOn(stdio.Err)}
	// Notices (an extension that hangs or is gone) go to stderr too.
	opts.OnEvent = func(ev agent.Event) {
		if ev.Type == agent.EventNotice {
			r.event(ev)
		}
	}
	h := host.New()
	s, err := h.Open(ctx, opts)
	if err != nil {
		return err
	}
	for _, n := range s.App().Notes {
		fmt.Fprintln(stdio.Err, "ℹ "+n)
	}
	s.App().WaitMCP(ctx)
	served := make(chan error, 1)
	go func() {
		served <- rpc.Serve(ctx, s, rpc.Lines(stdio.In, stdio.Out), rpc.Options{Name: "rpc", Owner: true})
	}()
	select {
	case err = <-served:
	case <-ctx.Done():
		// Ctrl-C or SIGTERM: the turn stops as an abort stops it, and the
		// session is saved; stdin may stay open, so nothing waits for it.
	}
	s.App().OnEnding = func(msg string) { fmt.Fprintln(stdio.Err, "ℹ "+msg) }
	closeErr := h.Close(context.WithoutCancel(ctx))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	return closeErr
}
