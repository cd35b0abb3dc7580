// Package fifotest makes named pipes (FIFOs) for the tests of code that
// must refuse them rather than block on their open (safefile, the read
// tool, tree digests), so those tests build on every system.
package fifotest

// Make creates a FIFO at path, mode 0644; on Windows, which has no
// FIFOs in its file system, it returns an error saying so.
func Make(path string) error { return mkfifo(path) }
