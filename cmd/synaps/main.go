// Command synaps is a terminal agent runtime whose heart is its process-based
// extension system. Everything lives in internal/; main only wires the
// process's arguments, streams and signals to cli.Main.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/synaps-cli/synaps/internal/cli"
	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/procs"
)

func main() {
	stdio := cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	// The version alone starts no process and reads nothing: it skips the
	// set-up below, whose scheduler change (a stop-the-world) and
	// exit-time orphan check were most of what it cost after init.
	if cli.OnlyVersion(os.Args[1:]) {
		os.Exit(cli.Main(context.Background(), os.Args[1:], stdio))
	}
	// One P runs synaps's Go code while it waits on pipes, sockets and
	// children, unless the user sets GOMAXPROCS; tool calls that run side
	// by side get every P (internal/procs says why).
	if os.Getenv("GOMAXPROCS") == "" {
		procs.Narrow()
	}
	// Nothing synaps starts may outlive it (see internal/lifeline).
	endLifeline, err := lifeline.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "synaps: warning:", err)
	}
	// SIGINT is cli.Main's: what Ctrl-C means depends on the command (-p
	// stops the turn, saves the session and exits 130).
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], stdio)
	stop()
	endLifeline()
	os.Exit(code)
}
