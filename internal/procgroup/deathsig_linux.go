package procgroup

import "syscall"

// dieWithParent asks Linux to SIGKILL the child when the thread that
// started it dies (Pdeathsig).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
