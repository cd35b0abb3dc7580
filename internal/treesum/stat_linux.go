package treesum

import (
	"fmt"
	"io/fs"
	"syscall"
	"time"
)

// statIdentity is the device, inode and change time of info. Linux names
// the change time Ctim; elsewhere (stat_other.go) there is none to use.
func statIdentity(info fs.FileInfo) (string, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d %d %d.%d", st.Dev, st.Ino, st.Ctim.Sec, st.Ctim.Nsec), true
}

// changeTime is info's change time (ctime).
func changeTime(info fs.FileInfo) time.Time {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return time.Time{}
}
