//go:build !windows

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize sends on c when the terminal changes size (SIGWINCH).
func notifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }
