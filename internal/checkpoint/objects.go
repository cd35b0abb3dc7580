package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// objects keeps file contents by their SHA-256, one file each, written
// once and never changed: a content kept for several points or sessions
// is one file (a forked session's directory hard-links its parent's).
type objects struct {
	dir string // "" keeps nothing
}

// put keeps b and returns its name.
func (o objects) put(b []byte) (string, error) {
	if o.dir == "" {
		return "", errors.New("no objects directory")
	}
	sum := sha256.Sum256(b)
	name := hex.EncodeToString(sum[:])
	p := filepath.Join(o.dir, name)
	if _, err := os.Stat(p); err == nil {
		return name, nil
	}
	if err := os.MkdirAll(o.dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(o.dir, ".tmp-")
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return name, nil
}

// get is the content named name.
func (o objects) get(name string) ([]byte, error) {
	if o.dir == "" || !isObjectName(name) {
		return nil, fs.ErrNotExist
	}
	return os.ReadFile(filepath.Join(o.dir, name))
}

// adopt makes from's object name one of o's too: a hard link, else a copy.
func (o objects) adopt(from objects, name string) {
	if o.dir == "" || from.dir == "" || !isObjectName(name) {
		return
	}
	dst := filepath.Join(o.dir, name)
	if _, err := os.Stat(dst); err == nil {
		return
	}
	if os.MkdirAll(o.dir, 0o700) != nil {
		return
	}
	if os.Link(filepath.Join(from.dir, name), dst) == nil {
		return
	}
	if b, err := from.get(name); err == nil {
		_, _ = o.put(b)
	}
}

// prune removes the objects not in keep (and leftovers of a put cut short).
func (o objects) prune(keep map[string]bool) {
	if o.dir == "" {
		return
	}
	entries, err := os.ReadDir(o.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			os.Remove(filepath.Join(o.dir, e.Name()))
		}
	}
}

// isObjectName: 64 lower-case hex digits (a name from a record read from
// disk is never taken as a path).
func isObjectName(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
