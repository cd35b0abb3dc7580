//go:build unix

package checkpoint

import (
	"io/fs"
	"syscall"
)

// inode is fi's inode number: a file replaced by another of the same
// size and time (an editor's rename over it) still differs.
func inode(fi fs.FileInfo) uint64 {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Ino)
	}
	return 0
}
