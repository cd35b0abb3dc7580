package claude

import "syscall"

// procAttr starts a hook in its own process group, so that a timeout
// kills what it started too, and asks the kernel to SIGKILL it if synaps
// dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
