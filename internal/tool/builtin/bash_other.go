//go:build !linux

package builtin

import "syscall"

// bashProcAttr starts the shell in its own session (see bashTool); there is
// no parent-death signal here, only the lifeline sentinel.
func bashProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
