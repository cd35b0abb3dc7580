package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// handled are the filesystem rights synaps has Landlock judge: those of
// ABI 3 (read, write, create, remove, rename across directories,
// truncate), fewer on an older kernel. Rights of later ABIs — ioctl on
// devices, connecting to pathname unix sockets — are left alone: a
// terminal's ioctls and the ssh-agent's socket keep working, and the
// proxy bridge reaches synaps.
//
// The system calls are made here, on the helper's one locked thread just
// before execve, rather than through go-landlock: its enforcement on
// every thread of a Go process links libcap's psx (cgo wrapping
// pthread_create) into synaps, and a process about to execve needs only
// its one thread restricted.
const handled = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
	unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
	unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
	unix.LANDLOCK_ACCESS_FS_MAKE_SYM | unix.LANDLOCK_ACCESS_FS_REFER | unix.LANDLOCK_ACCESS_FS_TRUNCATE

const (
	rightsRead  = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	rightsWrite = handled &^ rightsRead
	rightsList  = unix.LANDLOCK_ACCESS_FS_READ_DIR
	// rightsFile are the rights that mean something on a file (not a
	// directory); Landlock refuses a rule on a file with any other.
	rightsFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_READ_FILE
)

// landlockABI is the kernel's Landlock ABI version, 0 when it has none.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// handledAt are the rights an ABI version knows.
func handledAt(abi int) uint64 {
	h := uint64(handled)
	if abi < 2 {
		h &^= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi < 3 {
		h &^= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	return h
}

// applyLandlock restricts the calling thread — the helper's locked one,
// which then execve's — to the policy's files. no_new_privs must be set
// (applySeccomp's caller does it first).
func applyLandlock(s spec) error {
	fd, err := buildRuleset(s.grants())
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return restrictSelf(fd)
}

// restrictSelf restricts the calling thread by the ruleset fd.
func restrictSelf(fd int) error {
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
		return fmt.Errorf("landlock: restrict: %w", errno)
	}
	return nil
}

// buildRuleset creates a Landlock ruleset (close-on-exec) holding the
// rules of grants (prepare works them out once per policy).
func buildRuleset(grants []grant) (int, error) {
	abi := landlockABI()
	if abi == 0 {
		return -1, fmt.Errorf("landlock: the kernel does not offer it")
	}
	h := handledAt(abi)
	rights := map[string]uint64{}
	kinds := map[string]int{}
	var order []string
	for _, g := range grants {
		if g.kind != kindUnknown {
			kinds[g.path] = g.kind
		}
		var r uint64
		if g.access&accessRead != 0 {
			r |= rightsRead
		}
		if g.access&accessWrite != 0 {
			r |= rightsWrite
		}
		if g.access&accessList != 0 {
			r |= rightsList
		}
		if _, ok := rights[g.path]; !ok {
			order = append(order, g.path)
		}
		rights[g.path] |= r
	}
	// The attribute is ABI 1's struct, handled_access_fs only: every
	// kernel with Landlock reads it, and network and scopes stay
	// unhandled.
	attr := struct{ handledFS uint64 }{h}
	rfd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return -1, fmt.Errorf("landlock: create ruleset: %w", errno)
	}
	fd := int(rfd)
	for _, path := range order {
		r := rights[path] & h
		kind := kinds[path]
		if kind == kindMissing {
			continue
		}
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // a path that does not exist grants nothing
		}
		if kind == kindUnknown {
			// Not prepared: look. (A prepared kind that is stale makes
			// the rule fail or narrower, never wider.)
			var st unix.Stat_t
			if unix.Fstat(pfd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
				kind = kindFile
			}
		}
		if kind == kindFile {
			r &= rightsFile
		}
		if r != 0 {
			rule := unix.LandlockPathBeneathAttr{Allowed_access: r, Parent_fd: int32(pfd)}
			_, _, errno = unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, rfd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		}
		unix.Close(pfd)
		if r != 0 && errno != 0 {
			unix.Close(fd)
			return -1, fmt.Errorf("landlock: rule for %s: %w", path, errno)
		}
	}
	return fd, nil
}
