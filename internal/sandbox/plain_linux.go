package sandbox

import (
	"os/exec"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// StartPlain starts an unconfined cmd. A parent-death signal (Pdeathsig)
// fires when the *thread* that forked the child ends, not the process,
// and the runtime ends a thread whose goroutine exits locked: that is how
// a spawner thread retires (spawner_linux.go). An MCP server or an
// extension forked from a thread that later served a spawner was
// SIGKILLed mid-session when the spawner ended. So a command with the
// signal is forked with its goroutine locked to the thread, which is
// marked; onOwnThread never confines a marked thread.
func StartPlain(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil || cmd.SysProcAttr.Pdeathsig == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	markForked(unix.Gettid())
	return cmd.Start()
}

// forkedFrom are the threads StartPlain forked from. A mark is never
// taken back (a child's end is its caller's to learn): a thread keeps
// synaps's unconfined work, and the set is bounded by the threads the
// process has.
var forkedFrom struct {
	sync.Mutex
	tids map[int]bool
}

func markForked(tid int) {
	forkedFrom.Lock()
	defer forkedFrom.Unlock()
	if forkedFrom.tids == nil {
		forkedFrom.tids = map[int]bool{}
	}
	forkedFrom.tids[tid] = true
}

// hasForked reports whether a child with a parent-death signal may hang
// on thread tid.
func hasForked(tid int) bool {
	forkedFrom.Lock()
	defer forkedFrom.Unlock()
	return forkedFrom.tids[tid]
}
