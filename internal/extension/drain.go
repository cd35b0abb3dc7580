package extension

import (
	"errors"
	"io"
	"os"
	"time"
)

// pipeReader reads the parent's end of an extension's stderr pipe. It
// exists so that ending the reader never loses what the extension wrote
// last: a crashing extension's final stderr line is usually the only
// explanation of the crash, and closing the pipe under a reader that has
// not yet read it drops it (the kernel discards a pipe's buffer on close).
//
// Until finish is called it reads like the file. finish makes a blocked
// Read return; from then on Read takes only what the pipe already holds,
// without waiting, and then reports io.EOF. A grandchild that inherited the
// pipe and escaped the process group therefore cannot keep the reader
// alive, and no byte written before finish is lost.
type pipeReader struct {
	f *os.File
	// draining is set by Read once it has seen the deadline set by finish;
	// only the reading goroutine touches it.
	draining bool
}

// finish asks the reader to take what is buffered and stop. It reports
// false when the file cannot be interrupted (not pollable); the caller
// must then close it to end the reader.
func (r *pipeReader) finish() bool {
	return r.f.SetReadDeadline(time.Now()) == nil
}

func (r *pipeReader) Read(b []byte) (int, error) {
	if !r.draining {
		n, err := r.f.Read(b)
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return n, err
		}
		r.draining = true
		// A deadline in the past makes every further read fail at once;
		// clear it so the raw reads below reach the pipe.
		_ = r.f.SetReadDeadline(time.Time{})
		if n > 0 {
			return n, nil
		}
	}
	return r.readBuffered(b)
}

// readBuffered reads what the pipe holds now: io.EOF when it is empty
// (EAGAIN on the non-blocking descriptor) or at its real end.
func (r *pipeReader) readBuffered(b []byte) (int, error) {
	rc, err := r.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		n, rerr = readNow(fd, b)
		return true // never wait: take what is there, or stop
	})
	switch {
	case err != nil:
		return 0, err
	case rerr != nil || n <= 0:
		return 0, io.EOF
	}
	return n, nil
}
