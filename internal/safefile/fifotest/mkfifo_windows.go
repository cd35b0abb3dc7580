//go:build windows

package fifotest

import "errors"

func mkfifo(path string) error {
	return errors.New("cannot make the FIFO " + path + ": Windows has no FIFOs in its file system")
}
