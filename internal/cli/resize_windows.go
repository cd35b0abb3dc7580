//go:build windows

package cli

import "os"

// notifyResize sends nothing: Windows has no SIGWINCH, and its only
// user, attaching to a daemon session, is not available there.
func notifyResize(chan<- os.Signal) {}
