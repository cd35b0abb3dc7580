//go:build !linux

package trust

import "io/fs"

// statKey: outside Linux the stat fields differ by system, and every
// digest reads its files (no cache), which is always right.
func statKey(fs.FileInfo) (statID, bool) { return statID{}, false }
