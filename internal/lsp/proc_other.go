//go:build !linux

package lsp

import "syscall"

// sysProcAttr puts a server in its own process group, so it can be
// killed as one.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
