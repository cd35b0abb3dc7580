// Package safefile reads files synaps does not control — a cloned
// project's AGENTS.md, .synaps/config, a skill, a plugin's manifest —
// without letting them stall or swell the process. An untrusted clone can
// make any of those a symlink to /dev/zero (endless), a FIFO (an open
// that never returns) or a huge file; Read opens without blocking, takes
// regular files only and reads at most a bound.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrTooLarge is wrapped by ReadAll's error for a file longer than its
// bound.
var ErrTooLarge = errors.New("too large")

// ErrNotRegular is wrapped by Read's error for a path that is a device,
// a FIFO, a socket or a directory.
var ErrNotRegular = errors.New("not a regular file")

// Error is a file refused: "PATH: why; the fix".
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Read returns at most limit bytes of the regular file at path, and
// whether the file was longer (cut). The open does not block (O_NONBLOCK),
// so a FIFO is refused by the stat after it rather than hanging; anything
// but a regular file is an error wrapping ErrNotRegular and naming path.
// A missing file's error wraps fs.ErrNotExist, as os.ReadFile's does.
func Read(path string, limit int64) (data []byte, cut bool, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !info.Mode().IsRegular() {
		return nil, false, &Error{Path: path, Err: fmt.Errorf("%w (it is %s); synaps reads only regular files here, at most %s of one", ErrNotRegular, "a "+Kind(info.Mode()), Size(limit))}
	}
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}

// ReadAll is Read for files that are used whole or not at all (a config,
// a manifest): a file longer than limit is an error naming it and the
// bound.
func ReadAll(path string, limit int64) ([]byte, error) {
	data, cut, err := Read(path, limit)
	if err != nil {
		return nil, err
	}
	if cut {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: it is larger than %s, the most synaps reads of it; make it smaller", ErrTooLarge, Size(limit))}
	}
	return data, nil
}

// Size says a byte count the way the warnings do: "64 KiB", "1 MiB".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Kind names what a file that is not what a caller wanted is: "directory",
// "FIFO", "socket", "device", "file" or "special file". One list for
// every message that says so (safefile's own, plugin discovery, ls).
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "file"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
