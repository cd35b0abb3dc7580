//go:build !windows

package procgroup

import (
	"os"
	"syscall"
)

// Group starts the child in a new process group it leads (pgid = pid),
// with the parent-death signal where there is one.
func Group() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(a)
	return a
}

// Session starts the child as the leader of a new session, and so of a
// new process group, with no controlling terminal: a command that opens
// /dev/tty fails at once instead of stopping the terminal's foreground.
// It has the parent-death signal where there is one.
func Session() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setsid: true}
	dieWithParent(a)
	return a
}

// Detached starts the child in a new session meant to outlive synaps (the
// session daemon, the lifeline sentinel): no parent-death signal.
func Detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// Signal sends sig to the process group p leads.
func Signal(p *os.Process, sig syscall.Signal) error {
	return syscall.Kill(-p.Pid, sig)
}
