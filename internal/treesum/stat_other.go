//go:build !linux

package treesum

import (
	"io/fs"
	"time"
)

// statIdentity reports false: without a change time known to be reliable
// here, no tree is fingerprinted (and nothing keyed by one is cached).
func statIdentity(fs.FileInfo) (string, bool) { return "", false }

// changeTime is unknown here; nothing is cached anyway.
func changeTime(fs.FileInfo) time.Time { return time.Time{} }
