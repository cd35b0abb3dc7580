//go:build windows

package daemon

import (
	"errors"
	"net"
	"os"
)

// errUnsupported refuses the daemon on Windows: its sessions run in
// pseudo-terminals, its socket is guarded by Unix file modes and its link
// is an inherited Unix socket pair, none of which synaps has there.
var errUnsupported = errors.New("the session daemon (--detachable, attach, send) is not available on Windows; run synaps without --detachable")

func linkPair() (ours, theirs *os.File, err error) { return nil, nil, errUnsupported }

func linkFile(int) *os.File { return nil }

func listenPrivate(string) (net.Listener, error) { return nil, errUnsupported }

// redraw is not reached: no session runs on Windows.
func redraw(*os.Process) {}
