//go:build !linux

package extension

import "syscall"

// sysProcAttr puts the child in its own process group so it can be
// signalled as one.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
