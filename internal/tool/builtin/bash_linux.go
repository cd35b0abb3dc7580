package builtin

import "syscall"

// bashProcAttr starts the shell in its own session (see bashTool) and asks
// the kernel to SIGKILL it if synaps dies; the lifeline sentinel kills the
// rest of its group.
func bashProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
