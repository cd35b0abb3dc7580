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
	var listen, token, tokenFile string
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
Every connection needs the token: the one in --token-file PATH, else
$SYNAPS_SERVER_TOKEN, else a random one written to a file only you can
read (its path is printed on stderr; it is removed at exit). A token on
the command line (--token) is refused: every user of the machine could
read it. Browser pages of another origin are
refused unless --allow-origin lets them in. Ctrl-C ends the server and
saves the session.`,
		Example: `  synaps server
  synaps server --token-file ~/.config/synaps-token --listen 127.0.0.1:9000
  synaps server --allow-origin localhost:3000 --resume 20260101-120000-ab12cd`,
		Args: noArgsButID,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("token") {
				return errTokenOnCommandLine
			}
			return runServer(cmd.Context(), g, stdio, listen, tokenFile, origins)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", defaultListen, "`ADDR` to listen on (host:port; port 0 picks one)")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "read the token clients must send from `PATH` (default $"+ServerTokenEnv+", else a random one written to a 0600 file, its path printed)")
	// --token is refused with a message naming the alternatives: a
	// token in argv is readable by every local user.
	cmd.Flags().StringVar(&token, "token", "", "refused: a token on the command line is visible to every local user")
	cmd.Flags().MarkHidden("token")
	cmd.Flags().StringArrayVar(&origins, "allow-origin", nil, "let browser pages of this `ORIGIN` pattern in (repeatable), e.g. localhost:3000 or *.example.com")
	return cmd
}

func runServer(ctx context.Context, g *globals, stdio Stdio, listen, tokenFile string, origins []string) error {
	if tokenFile != "" {
		// A bad file is said before anything starts.
		if _, err := readTokenFile(tokenFile); err != nil {
			return err
		}
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
	addr := ln.Addr().(*net.TCPAddr)
	tok, err := resolveServerToken(tokenFile, os.Getenv, opts.BaseDir, addr.Port)
	if err != nil {
		ln.Close()
		return err
	}
	if tok.generated != "" {
		defer removeTokenFile(tok.generated, tok.token)
	}
	if tok.warning != "" {
		fmt.Fprintln(stdio.Err, "synaps server: "+tok.warning)
	}
	h := host.New()
	s, err := h.Open(ctx, opts)
	if err != nil {
		ln.Close()
		return err
	}
	sv, err := server.New(s, server.Options{Token: tok.token, AllowOrigins: origins, Log: stdio.Err})
	if err != nil {
		ln.Close()
		h.Close(context.WithoutCancel(ctx))
		return usageError{err}
	}
	for _, n := range s.App().Notes {
		fmt.Fprintln(stdio.Err, "ℹ "+n)
	}
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(stdio.Err, "synaps server: warning: listening on %s, beyond this machine: anyone who can reach it and has the token drives the session (put TLS in front of it)\n", addr)
	}
	if tok.generated != "" {
		fmt.Fprintf(stdio.Err, "synaps server: token in %s (readable by you only; send it as Authorization: Bearer TOKEN or ?token=TOKEN)\n", tok.generated)
	}
	fmt.Fprintf(stdio.Err, "synaps server: session %s on ws://%s/\n", s.ID(), addr)
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
