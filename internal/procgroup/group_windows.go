//go:build windows

package procgroup

import (
	"fmt"
	"os"
	"syscall"
)

// Group starts the child in a new console process group, so a Ctrl-C in
// synaps's console does not reach it. Windows has no parent-death signal.
func Group() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// Session is Group here: Windows has no sessions to leave.
func Session() *syscall.SysProcAttr { return Group() }

// Detached is Group here too.
func Detached() *syscall.SysProcAttr { return Group() }

// Signal kills p itself for SIGKILL: Windows cannot signal a process
// group, so p's own children outlive it. Any other signal is refused
// (Windows has no SIGTERM to deliver); callers that try SIGTERM first
// then fall back to SIGKILL after their grace period.
func Signal(p *os.Process, sig syscall.Signal) error {
	if sig != syscall.SIGKILL {
		return fmt.Errorf("cannot send %v to process %d: Windows delivers no signals but kill", sig, p.Pid)
	}
	return p.Kill()
}
