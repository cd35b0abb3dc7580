//go:build !linux

package mcp

import "syscall"

// sysProcAttr puts a stdio server in its own process group, so it can be
// killed as one.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
