//go:build !windows

package extension

import "syscall"

// readNow is one read(2) of the non-blocking descriptor fd, retried only
// when a signal interrupted it.
func readNow(fd uintptr, b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}
