package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// planMasks works out, for a kernel that offers mount namespaces, the
// masks of p: one for each existing hidden path inside a writable tree.
// kept are the hidden paths inside a writable tree that cannot be masked
// (a file, where /dev/null is not the null device): Landlock grants read
// around them child by child, as without masks, and they are mounted
// read-only.
func planMasks(p Policy) (masks []mask, kept []string) {
	writes := resolveAll(p.Write)
	reveals := resolveAll(p.Reveal)
	nullOK := nullDevice(nullPath) == nil
	for _, h := range resolveAll(p.Hidden) {
		if !insideAny(h, writes) {
			continue
		}
		if maskedBy(masks, h) {
			continue // inside a store already masked (sorted: parents first)
		}
		var st unix.Stat_t
		if unix.Lstat(h, &st) != nil {
			continue // nothing to hide (yet)
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			m := mask{Path: h, Dir: true}
			for _, r := range reveals {
				if r != h && within(r, h) && exists(r) {
					m.Reveal = append(m.Reveal, r)
				}
			}
			masks = append(masks, m)
		case unix.S_IFLNK:
			// A dangling link: nothing to read through it.
		default:
			if !nullOK || containsPath(reveals, h) {
				kept = append(kept, h)
				continue
			}
			masks = append(masks, mask{Path: h})
		}
	}
	return masks, kept
}

// aroundHidden are the hidden paths Landlock grants read around (every
// one, without masks): with masks, those inside a writable tree are
// covered by their mask (or, missing, have nothing to hide), but kept.
func aroundHidden(p Policy, masking bool, kept []string) []string {
	hidden := resolveAll(p.Hidden)
	if !masking {
		return hidden
	}
	writes := resolveAll(p.Write)
	var out []string
	for _, h := range hidden {
		if !insideAny(h, writes) || containsPath(kept, h) {
			out = append(out, h)
		}
	}
	return out
}

func maskedBy(masks []mask, path string) bool {
	for _, m := range masks {
		if within(path, m.Path) {
			return true
		}
	}
	return false
}

func insideAny(path string, roots []string) bool {
	for _, r := range roots {
		if within(path, r) {
			return true
		}
	}
	return false
}

// nullDevice checks that path is the null character device (1, 3): a
// mask of /dev/null that were a regular file (a broken container, a
// test gone wrong) would show whatever was written to it.
func nullDevice(path string) error {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return err
	}
	return nullStat(path, st)
}

func nullStat(path string, st unix.Stat_t) error {
	if st.Mode&unix.S_IFMT != unix.S_IFCHR || unix.Major(st.Rdev) != 1 || unix.Minor(st.Rdev) != 3 {
		return fmt.Errorf("%s is not the null device (character device 1, 3); a credential file is not masked with it", path)
	}
	return nil
}

// applyMasks mounts the masks in the calling thread's (or process's)
// mount namespace, which must be its own and not shared with synaps's
// (mountAll), in planMasks's order (parents first). Every mask is read-only, so a store can be neither
// read nor written.
func applyMasks(masks []mask) error {
	if len(masks) == 0 {
		return nil
	}
	var null = -1
	defer func() {
		if null >= 0 {
			unix.Close(null)
		}
	}()
	empty := "" // the first plain directory mask, bound over the others
	for _, m := range masks {
		switch {
		case m.Dir && len(m.Reveal) > 0:
			if err := maskRevealing(m); err != nil {
				return err
			}
		case m.Dir && empty == "":
			if err := unix.Mount("tmpfs", m.Path, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0555,size=4k"); err != nil {
				return fmt.Errorf("mask of %s: %w", m.Path, err)
			}
			empty = m.Path
		case m.Dir:
			if err := unix.Mount(empty, m.Path, "", unix.MS_BIND, ""); err != nil {
				return fmt.Errorf("mask of %s: %w", m.Path, err)
			}
		default:
			if null < 0 {
				fd, err := unix.Open(nullPath, unix.O_PATH|unix.O_CLOEXEC, 0)
				if err != nil {
					return fmt.Errorf("mask of %s: %w", m.Path, err)
				}
				null = fd
				var st unix.Stat_t
				if err := unix.Fstat(fd, &st); err != nil {
					return fmt.Errorf("mask of %s: %w", m.Path, err)
				}
				if err := nullStat(nullPath, st); err != nil {
					return err
				}
			}
			if err := bindReadOnly(fdPath(null), m.Path); err != nil {
				return fmt.Errorf("mask of %s: %w", m.Path, err)
			}
		}
	}
	return nil
}

// maskRevealing covers a hidden directory with an empty one of its own
// into which the paths it reveals are bind-mounted read-only (opened
// before the cover hides them), then makes the cover read-only.
func maskRevealing(m mask) error {
	fds := make([]int, 0, len(m.Reveal))
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	dirs := make([]bool, 0, len(m.Reveal))
	for _, r := range m.Reveal {
		fd, err := unix.Open(r, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("mask of %s: %w", m.Path, err)
		}
		fds = append(fds, fd)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return fmt.Errorf("mask of %s: %w", m.Path, err)
		}
		dirs = append(dirs, st.Mode&unix.S_IFMT == unix.S_IFDIR)
	}
	const flags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
	// Writable by its owner (synaps's user: a user namespace has no
	// CAP_DAC_OVERRIDE) until the mount points are made, then read-only.
	if err := unix.Mount("tmpfs", m.Path, "tmpfs", flags, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("mask of %s: %w", m.Path, err)
	}
	for i, r := range m.Reveal {
		if err := os.MkdirAll(filepath.Dir(r), 0o755); err != nil {
			return fmt.Errorf("mask of %s: %w", m.Path, err)
		}
		if dirs[i] {
			err := os.Mkdir(r, 0o755)
			if err != nil && !os.IsExist(err) {
				return fmt.Errorf("mask of %s: %w", m.Path, err)
			}
		} else if err := os.WriteFile(r, nil, 0o444); err != nil {
			return fmt.Errorf("mask of %s: %w", m.Path, err)
		}
		if err := bindReadOnly(fdPath(fds[i]), r); err != nil {
			return fmt.Errorf("mask of %s: revealing %s: %w", m.Path, r, err)
		}
	}
	if err := unix.Mount("", m.Path, "", unix.MS_REMOUNT|unix.MS_RDONLY|flags, ""); err != nil {
		return fmt.Errorf("mask of %s: %w", m.Path, err)
	}
	return nil
}

// fdPath names an open descriptor as a path mount follows.
func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

// bindReadOnly bind-mounts source on target and makes that mount
// read-only, keeping the flags of the mount it came from (a user
// namespace may not drop nosuid, nodev…).
func bindReadOnly(source, target string) error {
	if err := unix.Mount(source, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	flags := uintptr(0)
	if unix.Statfs(target, &st) == nil {
		for _, f := range []struct{ st, ms uintptr }{
			{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
			{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
		} {
			if uintptr(st.Flags)&f.st != 0 {
				flags |= f.ms
			}
		}
	}
	return unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|flags, "")
}

// nullPath is the null device masks of files are mounted from (a test
// points it elsewhere to see a wrong one refused).
var nullPath = "/dev/null"
