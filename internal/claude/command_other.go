//go:build !linux

package claude

import "syscall"

// procAttr starts a hook in its own process group, so that a timeout
// kills what it started too.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
