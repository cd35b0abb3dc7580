package trust

import (
	"io/fs"
	"syscall"
)

// statKey is what fileSum's cache checks a file against: inode, size,
// modification and change times. Linux names the times Mtim and Ctim;
// elsewhere (statkey_other.go) nothing is cached.
func statKey(info fs.FileInfo) (statID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return statID{}, false
	}
	return statID{ino: int64(st.Ino), size: st.Size, mtime: st.Mtim.Sec, mtimeNs: st.Mtim.Nsec, ctime: st.Ctim.Sec, ctimeNs: st.Ctim.Nsec}, true
}
