package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
)

// A session discovers plugins several times as it starts (the extension
// host, skills, commands, settings, MCP servers), and with plugins.verify
// = strict each discovery checks every pin. Reading every file of every
// plugin each time would multiply the cost, so a process remembers each
// check with a fingerprint of the tree's metadata and reuses it while
// the fingerprint stands. The fingerprint holds every entry's inode and
// change time (ctime), which every write to a file moves and which no
// unprivileged process can set back, so a file rewritten in place, with
// its size and modification time restored, still reads as changed.
// Where the system offers no ctime (statIdentity reports false), nothing
// is remembered and every check reads the files.

var pinMemo = struct {
	sync.Mutex
	m map[string]pinMemoEntry
}{m: map[string]pinMemoEntry{}}

type pinMemoEntry struct {
	sig   string
	check PinCheck
}

// treeFingerprint is the hash of every entry's path, mode, size,
// modification time, inode and ctime under root, or ok false when the
// system cannot say (no ctime) or the walk fails.
func treeFingerprint(root string) (sig string, ok bool) {
	h := sha256.New()
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != root && pinSkipped[d.Name()] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > MaxPinFiles {
			return fmt.Errorf("too many files")
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		id, ok := statIdentity(info)
		if !ok {
			return fmt.Errorf("no ctime")
		}
		fmt.Fprintf(h, "%s\x00%v %d %d %s\n", path, info.Mode(), info.Size(), info.ModTime().UnixNano(), id)
		return nil
	})
	if err != nil {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// memoCheck returns the remembered check of root against the record
// whose digest is digest, or computes it with check and remembers it.
func memoCheck(root, digest string, check func() PinCheck) PinCheck {
	key := root + "\x00" + digest
	sig, ok := treeFingerprint(root)
	if ok {
		pinMemo.Lock()
		e, hit := pinMemo.m[key]
		pinMemo.Unlock()
		if hit && e.sig == sig {
			return e.check
		}
	}
	c := check()
	if ok && c.State != PinUnknown {
		pinMemo.Lock()
		pinMemo.m[key] = pinMemoEntry{sig: sig, check: c}
		pinMemo.Unlock()
	}
	return c
}
