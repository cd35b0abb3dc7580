// Package treesum measures directory trees: the content digest that
// plugin pins and project trust record, and a cheap fingerprint of the
// tree's metadata that tells, without reading a file, whether anything
// in it may have changed since (the extension initialize cache's key).
// Both walk the same entries: the names in Skip are left out, so what a
// tool writes beside a plugin's code (Python's __pycache__, a checkout's
// .git, Finder's .DS_Store) changes neither.
package treesum

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
)

// skipped are the names never measured, at any depth.
var skipped = map[string]bool{".git": true, "__pycache__": true, ".DS_Store": true}

// Skip reports whether an entry of this name is left out of a tree's
// digest and fingerprint.
func Skip(name string) bool { return skipped[name] }

// Fingerprint hashes every entry's path, mode, size, modification time,
// inode and change time under root (a symlinked root is measured where it
// points), reading no file. Every write to a file moves its change time,
// which no unprivileged process can set back, so a file rewritten in
// place with its size and modification time restored still changes the
// fingerprint. More than maxEntries entries (0: no bound) is an error, as
// is a system that keeps no change time (ok false from statIdentity).
func Fingerprint(root string, maxEntries int) (string, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	n := 0
	err = filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != real && Skip(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; maxEntries > 0 && n > maxEntries {
			return fmt.Errorf("%s holds more than %d entries", root, maxEntries)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		id, ok := statIdentity(info)
		if !ok {
			return fmt.Errorf("%s: this system keeps no change times, so the tree cannot be fingerprinted", path)
		}
		rel, _ := filepath.Rel(real, path)
		fmt.Fprintf(h, "%s\x00%v %d %d %s\n", filepath.ToSlash(rel), info.Mode(), info.Size(), info.ModTime().UnixNano(), id)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
