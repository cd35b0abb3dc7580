//go:build !windows

package filelock

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lock is flock(2): whole-file, advisory, owned by the open file.
func lock(f *os.File, k kind, wait bool) error {
	how := syscall.LOCK_SH
	if k == exclusive {
		how = syscall.LOCK_EX
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return fmt.Errorf("%s: %w", f.Name(), ErrLocked)
		default:
			return fmt.Errorf("cannot lock %s: %w", f.Name(), err)
		}
	}
}

func unlock(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		return fmt.Errorf("cannot unlock %s: %w", f.Name(), err)
	}
	return nil
}
