//go:build !unix

package checkpoint

import "io/fs"

// inode is 0 where the system has no inode numbers to compare.
func inode(fs.FileInfo) uint64 { return 0 }
