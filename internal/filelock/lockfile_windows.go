//go:build windows

package filelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// Windows locks are mandatory for the bytes they cover: another handle
// cannot read a locked range. So the lock covers one byte far past any
// data (offset 2^62; locking past the end of a file is allowed), and a
// lock file's contents (the session lock's owner) stay readable.
const lockOffsetHigh = 1 << 30

func overlapped() *windows.Overlapped { return &windows.Overlapped{OffsetHigh: lockOffsetHigh} }

// lock is LockFileEx on that one byte; a handle that holds it excludes
// another handle, as flock's open file does.
func lock(f *os.File, k kind, wait bool) error {
	var flags uint32
	if k == exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, overlapped())
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return fmt.Errorf("%s: %w", f.Name(), ErrLocked)
	default:
		return fmt.Errorf("cannot lock %s: %w", f.Name(), err)
	}
}

func unlock(f *os.File) error {
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, overlapped()); err != nil {
		return fmt.Errorf("cannot unlock %s: %w", f.Name(), err)
	}
	return nil
}
