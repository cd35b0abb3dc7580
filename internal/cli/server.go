package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/server"
)

// defaultListen is where `synaps server` listens without --listen:
// loopback only.
const defaultListen = "127.0.0.1:7878"

// newServerCmd is `synaps server`: one session's rpc frames over
// WebSocket for any number of clients (docs/rpc.md).
func newServerCmd(g *globals, stdio Stdio) *cobra.Command {
	var listen, token string
	var origins []string
	cmd := &cobra.Command{
		Use:   "server",
		Short: "Serve one session over WebSocket to any number of clients (rpc's frames)",
		Long: `synaps server opens one session (new, or --continue / --resume ID) and
serves it over WebSocket: every client speaks the commands and gets the
events of 'synaps rpc' (docs/rpc.md), one JSON object per message; all
clients see every event of the session, and each gets the responses to
its own commands. A client that goes leaves the turn running.

It listens on loopback (` + defaultListen + `) unless --listen says otherwise.
Every connection needs the token: --token, else $SYNAPS_SERVER_TOKEN,
else a random one printed on stderr. Browser pages of another origin are
refused unless --allow-origin lets them in. Ctrl-C ends the server and
saves the session.`,
		Example: `  synaps server
  SYNAPS_SERVER_TOKEN=s3cret synaps server --listen 127.0.0.1:9000
  synaps server --allow-origin localhost:3000 --resume 20260101-120000-ab12cd`,
		Args: noArgsButID,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServer(cmd.Context(), g, stdio, listen, token, origins)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", defaultListen, "`ADDR` to listen on (host:port; port 0 picks one)")
	cmd.Flags().StringVar(&token, "token", "", "the `TOKEN` clients must send (default $SYNAPS_SERVER_TOKEN, else a random one, printed)")
	cmd.Flags().StringArrayVar(&origins, "allow-origin", nil, "let browser pages of this `ORIGIN` pattern in (repeatable), e.g. localhost:3000 or *.example.com")
	return cmd
}

func runServer(ctx context.Context, g *globals, stdio Stdio, listen, token string, origins []string) error {
	generated := false
	if token == "" {
		token = os.Getenv("SYNAPS_SERVER_TOKEN")
	}
	if token == "" {
		var err error
		if token, err = server.NewToken(); err != nil {
			return err
		}
		generated = true
	}
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	r := &renderer{out: stdio.Err, color: colorOn(stdio.Err)}
	opts.OnEvent = func(ev agent.Event) {
		if ev.Type == agent.EventNotice {
			r.event(ev)
		}
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return usageError{fmt.Errorf("--listen %s: %v", listen, err)}
	}
	h := host.New()
	s, err := h.Open(ctx, opts)
	if err != nil {
		ln.Close()
		return err
	}
	sv, err := server.New(s, server.Options{Token: token, AllowOrigins: origins, Log: stdio.Err})
	if err != nil {
		ln.Close()
		h.Close(context.WithoutCancel(ctx))
		return usageError{err}
	}
	for _, n := range s.App().Notes {
		fmt.Fprintln(stdio.Err, "ℹ "+n)
	}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(stdio.Err, "synaps server: warning: listening on %s, beyond this machine: anyone who can reach it and has the token drives the session (put TLS in front of it)\n", addr)
	}
	fmt.Fprintf(stdio.Err, "synaps server: session %s on ws://%s/\n", s.ID(), addr)
	if generated {
		fmt.Fprintf(stdio.Err, "synaps server: token %s (send it as Authorization: Bearer TOKEN or ?token=TOKEN)\n", token)
	}
	web := &http.Server{Handler: sv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- web.Serve(ln) }()
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	web.Close()
	sv.Close()
	s.App().OnEnding = func(msg string) { fmt.Fprintln(stdio.Err, "ℹ "+msg) }
	closeErr := h.Close(context.WithoutCancel(ctx))
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// Ctrl-C or SIGTERM is how a server ends: not a failure.
	return closeErr
}
