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
)

func main() {
	// Nothing synaps starts may outlive it (see internal/lifeline).
	endLifeline, err := lifeline.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "synaps: warning:", err)
	}
	// SIGINT is cli.Main's: what Ctrl-C means depends on the command (-p
	// stops the turn, saves the session and exits 130).
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	endLifeline()
	os.Exit(code)
}
