// Package filelock is the one advisory file lock synaps takes on a file:
// the session lock, the config writer's lock, the memory store's append
// lock, the daemon's lock and the extension log's rotation lock all go
// through it, so the system-specific part (flock on Unix, LockFileEx on
// Windows) is written once.
//
// A lock belongs to the open file (*os.File), not to the process: two
// opens of one path in the same process exclude each other, and closing
// the file drops its lock.
package filelock

import (
	"errors"
	"os"
)

// ErrLocked is wrapped by TryLock's and TryRLock's error when another
// open file holds a lock that excludes the one asked for.
var ErrLocked = errors.New("held by another open file")

// Lock waits for f's exclusive lock.
func Lock(f *os.File) error { return lock(f, exclusive, true) }

// TryLock takes f's exclusive lock, or returns at once an error wrapping
// ErrLocked when another open file holds a lock on it.
func TryLock(f *os.File) error { return lock(f, exclusive, false) }

// TryRLock takes f's shared lock, or returns at once an error wrapping
// ErrLocked when another open file holds the exclusive lock. Shared locks
// do not exclude each other.
func TryRLock(f *os.File) error { return lock(f, shared, false) }

// Unlock drops f's lock (closing f drops it too).
func Unlock(f *os.File) error { return unlock(f) }

type kind int

const (
	shared kind = iota
	exclusive
)
