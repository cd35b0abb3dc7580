//go:build !windows

package daemon

import (
	"fmt"
	"net"
	"os"
	"syscall"

	"github.com/synaps-cli/synaps/internal/procgroup"
)

// errUnsupported is nil: the daemon runs here (its sessions need
// pseudo-terminals too, see openPTY).
var errUnsupported error

// linkPair makes a link: the daemon's end (close-on-exec) and the UI's.
func linkPair() (ours, theirs *os.File, err error) {
	// Close-on-exec before any other fork can see them (SOCK_CLOEXEC is
	// not everywhere): exec.Cmd forks under ForkLock's write side.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot make the session's link: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "link"), os.NewFile(uintptr(fds[1]), "link"), nil
}

// linkFile is the inherited link descriptor fd as a file (close-on-exec
// from now), or nil when fd is not an open socket.
func linkFile(fd int) *os.File {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return nil
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "daemon-link")
}

// listenPrivate listens on the Unix socket path, created 0600 from the
// start (the umask closes the window before the caller's chmod).
func listenPrivate(path string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}

// redraw has a session's UI draw its screen again (SIGWINCH to its group).
func redraw(p *os.Process) { _ = procgroup.Signal(p, syscall.SIGWINCH) }
