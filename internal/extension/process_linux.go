package extension

import "syscall"

// sysProcAttr puts the child in its own process group (so the terminal's
// Ctrl-C reaches synaps, not the extension, and the group can be signalled
// as one) and asks the kernel to SIGKILL it if synaps itself dies, so no
// extension outlives a crashed or killed runtime.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
