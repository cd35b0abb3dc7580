package lsp

import "syscall"

// sysProcAttr puts a server in its own process group (the terminal's
// Ctrl-C reaches synaps, not the server, and the group can be killed as
// one) and has the kernel SIGKILL it should synaps die.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
