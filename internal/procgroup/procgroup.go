// Package procgroup starts a child process as the leader of its own
// process group, so that the child and whatever it forks (an npx server's
// node child, the `sleep` a bash command left in the background) can be
// signalled as one, and a terminal's Ctrl-C reaches synaps alone.
//
// On Linux the child also gets SIGKILL should the synaps thread that
// started it die (a parent-death signal); other Unix systems have none,
// and internal/lifeline's sentinel is the only guard there. Windows has
// no process groups to signal: Signal kills the child itself (its own
// children survive it) and refuses any signal but SIGKILL.
//
// The spawners (extensions, MCP and language servers, Claude hooks, the
// bash tool, the session daemon, the lifeline sentinel) all start their
// children through it, so the system-specific part is written once.
package procgroup

import (
	"os"
	"syscall"
)

// Kill sends SIGKILL to the process group p leads (on Windows, to p).
// Killing a group that is already gone is not an error worth reporting;
// callers usually ignore the result.
func Kill(p *os.Process) error { return Signal(p, syscall.SIGKILL) }
