package plugin

import (
	"fmt"
	"io/fs"
	"syscall"
)

// statIdentity is the inode and change time of info (pin_memo.go).
func statIdentity(info fs.FileInfo) (string, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d %d %d.%d", st.Dev, st.Ino, st.Ctim.Sec, st.Ctim.Nsec), true
}
