// Package config locates synaps's base directory and reads its config file.
//
// The config file is the format existing SynapsCLI users already have:
// `key = value` lines, `#` comments, blank lines ignored. Keys are case
// sensitive; the last assignment of a key wins. The same reader serves the
// per-plugin `plugins/<id>/config` files.
package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// BaseDirEnv overrides the base directory (default ~/.synaps-cli).
const BaseDirEnv = "SYNAPS_BASE_DIR"

// BaseDir returns $SYNAPS_BASE_DIR, or ~/.synaps-cli.
func BaseDir(getenv func(string) string) (string, error) {
	if d := getenv(BaseDirEnv); d != "" {
		return filepath.Abs(d)
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot find the home directory (%v); set %s to choose where synaps keeps its data", err, BaseDirEnv)
		}
		home = h
	}
	return filepath.Join(home, ".synaps-cli"), nil
}

// File is a parsed key = value file. The zero value is an empty file.
type File struct {
	// Path is where the file was read from ("" for an empty file).
	Path string
	// Problems are the lines that were skipped (not `key = value`) or
	// why the whole file was not used (not a regular file, too large):
	// warnings with the file, line and fix, said at start (Check). A
	// cloned project's bad .synaps/config must not stop synaps starting.
	Problems []string
	values   map[string]string
}

// MaxFileSize bounds a config file: one larger is not used (a warning),
// so a file that is a link to /dev/zero cannot swell the process.
const MaxFileSize = 1 << 20

// Load reads a key = value file. A missing file is an empty File, not an
// error: a fresh install has no config. One that is not a regular file
// (a FIFO, a device) or is larger than MaxFileSize is empty too, with a
// Problem saying why; it is read without blocking (safefile).
func Load(path string) (*File, error) {
	data, err := safefile.ReadAll(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path}, nil
	}
	if errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrTooLarge) {
		return &File{Path: path, Problems: []string{fmt.Sprintf("%v; its settings are not used", err)}, values: map[string]string{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads key = value lines. A line that has no '=' is skipped with a
// Problem naming the file and line and how to fix it, so a typo never
// silently drops a setting, nor stops synaps starting.
func Parse(path string, data []byte) (*File, error) {
	f := &File{Path: path, values: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			f.Problems = append(f.Problems, fmt.Sprintf("%s:%d: %q is not a setting, so the line is skipped; write it as `key = value` (or start the line with # to make it a comment)", path, n, line))
			continue
		}
		f.values[key] = unquote(strings.TrimSpace(value))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// unquote strips one pair of matching surrounding quotes, so `key = "a b"`
// and `key = a b` mean the same. `"a", "b"` is not one quoted string but
// a list of two: quotes inside leave it as it is.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] && !strings.ContainsRune(v[1:len(v)-1], rune(v[0])) {
		return v[1 : len(v)-1]
	}
	return v
}

// Get returns the value of key and whether it was set.
func (f *File) Get(key string) (string, bool) {
	if f == nil {
		return "", false
	}
	v, ok := f.values[key]
	return v, ok
}

// Keys returns the keys in sorted order.
func (f *File) Keys() []string {
	if f == nil {
		return nil
	}
	keys := make([]string, 0, len(f.values))
	for k := range f.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// List splits a comma-separated value into trimmed, non-empty items. The
// bracketed form other tools use, `["a", "b"]`, means the same: brackets
// around the list and quotes around an item are dropped.
func (f *File) List(key string) []string {
	v, _ := f.Get(key)
	return SplitList(v)
}

// SplitList is List for a value.
func SplitList(v string) []string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		v = v[1 : len(v)-1]
	}
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = unquote(strings.TrimSpace(item)); item != "" {
			out = append(out, item)
		}
	}
	return out
}
