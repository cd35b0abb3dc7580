// Command tuimain runs the terminal UI on a scripted model, for the TUI's
// end-to-end test (until the synaps command line starts the TUI itself).
//
//	tuimain script:FILE
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/tui"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tuimain script:FILE")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	err := tui.Run(ctx, app.Options{Model: os.Args[1], TrustProject: false, Version: "test"}, os.Stdin, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tuimain:", err)
		os.Exit(1)
	}
}
