package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/filelock"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Set writes key = value into the file at path, replacing the key's last
// assignment in place (so comments and order survive) or appending it. An
// empty value removes the key.
func Set(path, key, value string) error {
	return Update(path, key, func(string, bool) (string, error) { return value, nil })
}

// Update changes one key of the file at path: fn gets the key's current
// value (and whether it is set) and returns the new one ("" removes it).
//
// Writers are serialised by an flock on "<file>.lock" next to the file,
// and the read happens under the lock, so concurrent updates (eight
// `synaps extensions disable` at once) each see the one before: none is
// lost. The new content goes to a temporary file with a unique name in
// the same directory and is renamed over the old one, so a reader sees
// the old file or the new one, never half of one. When path is a symlink
// (a config kept in a dotfiles repository), the link's target is written
// and the link stays.
func Update(path, key string, fn func(value string, set bool) (string, error)) error {
	target, err := resolveLinks(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	unlock, err := lock(target + ".lock")
	if err != nil {
		return err
	}
	defer unlock()

	data, err := safefile.ReadAll(target, MaxFileSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	mode := fs.FileMode(0o600)
	if info, err := os.Stat(target); err == nil {
		mode = info.Mode().Perm()
	}
	cur, err := Parse(path, data)
	if err != nil {
		return err
	}
	old, set := cur.Get(key)
	value, err := fn(old, set)
	if err != nil {
		return err
	}
	if set && value == old || !set && value == "" {
		return nil // nothing changes: leave the file as its owner wrote it
	}
	if strings.ContainsAny(value, "\n\r") || strings.ContainsAny(key, "\n\r=") {
		return fmt.Errorf("%s: cannot write %s: a key or value on one line may not hold a line break", path, key)
	}
	return ReplaceFile(target, edit(data, key, value), mode)
}

// edit returns data with key set to value (see Set).
func edit(data []byte, key, value string) []byte {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(data) == 0 {
		lines = nil
	}
	last := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") {
			continue
		}
		if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == key {
			last = i
		}
	}
	entry := key + " = " + value
	switch {
	case last >= 0 && value == "":
		lines = append(lines[:last], lines[last+1:]...)
	case last >= 0:
		lines[last] = entry
	case value != "":
		lines = append(lines, entry)
	}
	out := strings.Join(lines, "\n")
	if out != "" {
		out += "\n"
	}
	return []byte(out)
}

// ReplaceFile writes data to a uniquely named temporary file next to path
// (private until it is chmodded to mode, synced) and renames it over path,
// so a reader never sees half a file. The config, the plugin secrets and
// the extensions' initialize cache are written so.
func ReplaceFile(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// resolveLinks follows path through symlinks to the file to write; the
// file itself need not exist yet (a link to a config not written yet).
func resolveLinks(path string) (string, error) {
	for hops := 0; hops < 40; hops++ {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			if !info.Mode().IsRegular() {
				return "", fmt.Errorf("%s is not a regular file; synaps writes its settings there, so make it one (or a symlink to one)", path)
			}
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links; point it at a regular file", path)
}

// lock takes an exclusive lock on path (created if need be) and returns
// its release.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the config for writing: %w", err)
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = filelock.Unlock(f)
		f.Close()
	}, nil
}
