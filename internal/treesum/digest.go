package treesum

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// Limits bound a Tree walk; a zero field is no bound.
type Limits struct {
	// MaxEntries is the most entries (files, directories, links).
	MaxEntries int
	// MaxBytes is the most bytes of regular files in all.
	MaxBytes int64
	// SkipRoot are names at the root left out as well: files that live
	// in the tree but are not part of what is measured (a plugin's user
	// config).
	SkipRoot []string
}

// Tree measures the tree at root (a symlinked root is measured where it
// points): every entry's relative path and mode, each file's bytes, each
// symlink's target (not followed), leaving out the names Skip names. It
// returns the tree's digest and its entries, path to entry ("f755 <sha256>",
// "d755", "l777 -> target"), from which a listing says which files
// changed. Past a limit, or at anything that is not a file, directory or
// symlink (a FIFO, a socket: never opened), it stops with an error.
//
// Plugin pins (install records) and project trust both record this
// digest. A file's sum is remembered within the process while its inode,
// size and modification and change times stay as they were, so a tree
// measured again (a session checks pins and trust as it starts, and
// again on every reload) costs a walk, not a read of every file.
func Tree(root string, lim Limits) (digest string, files map[string]string, err error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", nil, err
	}
	files = map[string]string{}
	var total int64
	err = filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == real {
			return nil
		}
		if Skip(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(real, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if slices.Contains(lim.SkipRoot, rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if lim.MaxEntries > 0 && len(files) >= lim.MaxEntries {
			return fmt.Errorf("%s holds more than %d files, too many to measure", root, lim.MaxEntries)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := fmt.Sprintf("%o", info.Mode().Perm())
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			files[rel] = "l" + mode + " -> " + target
		case d.IsDir():
			files[rel] = "d" + mode
		case info.Mode().IsRegular():
			total += info.Size()
			if lim.MaxBytes > 0 && total > lim.MaxBytes {
				return fmt.Errorf("%s holds more than %s, too much to measure", root, safefile.Size(lim.MaxBytes))
			}
			sum, err := fileSum(path, info)
			if err != nil {
				return err
			}
			files[rel] = "f" + mode + " " + sum
		default:
			return fmt.Errorf("%s is %s, not a file, directory or symlink", path, safefile.Kind(info.Mode()))
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	return digestOf(files), files, nil
}

// Digest is Tree's digest alone, without limits.
func Digest(root string) (string, error) {
	d, _, err := Tree(root, Limits{})
	if err != nil {
		return "", fmt.Errorf("cannot take the digest of %s: %w", root, err)
	}
	return d, nil
}

// digestOf is the digest of the entries, in path order, each
// "<path>\x00<entry>\n": a path or entry cannot hold a NUL, so no two
// trees share one.
func digestOf(files map[string]string) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		io.WriteString(h, p)
		h.Write([]byte{0})
		io.WriteString(h, files[p])
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// sums remembers file sums by path, with the stat identity they were
// taken at (statIdentity: device, inode, change time) and the size and
// modification time.
var sums = struct {
	sync.Mutex
	m map[string]cachedSum
}{m: map[string]cachedSum{}}

type cachedSum struct {
	key string
	sum string
}

// racyWindow is how old a file's change time must be for its sum to be
// remembered: a file written in the last moments may be written again
// within the same timestamp tick, as git's "racily clean" files.
const racyWindow = 2 * time.Second

// keyOf is what a remembered sum is checked against.
func keyOf(info fs.FileInfo) string {
	id, _ := statIdentity(info)
	return fmt.Sprintf("%s %d %d", id, info.Size(), info.ModTime().UnixNano())
}

// fileSum is a regular file's sha256 in hex, from the cache when the
// file is as it was hashed. The open does not block, so a file swapped
// for a FIFO after the walk saw it is refused instead of hanging.
func fileSum(path string, info fs.FileInfo) (string, error) {
	_, ok := statIdentity(info)
	key := keyOf(info)
	if ok {
		sums.Lock()
		c, hit := sums.m[path]
		sums.Unlock()
		if hit && c.key == key {
			return c.sum, nil
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file", path)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if ok && time.Since(changeTime(info)) > racyWindow {
		sums.Lock()
		sums.m[path] = cachedSum{key, sum}
		sums.Unlock()
	}
	return sum, nil
}
