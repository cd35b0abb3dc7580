//go:build !linux && !windows

package procgroup

import "syscall"

// dieWithParent has nothing to set here: only Linux has a parent-death
// signal; the lifeline sentinel still kills the announced groups.
func dieWithParent(*syscall.SysProcAttr) {}
