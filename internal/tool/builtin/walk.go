package builtin

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// errStop ends a walk early without being an error.
var errStop = errors.New("stop walking")

// walker walks a directory tree the way git sees it: entries named .git are
// skipped, and so is everything matched by a .gitignore file (in the
// directory walked, in any directory below it, and in every directory from
// the enclosing git work tree's root down to it) or by .git/info/exclude.
// A search root that is itself ignored (the model asked for it by name) is
// walked without the rules of the directories above it. Symbolic links are
// reported, never followed. With a gate, what the permission rules deny
// reading is left out too, links judged by where they point.
type walker struct {
	root string // absolute directory the walk starts in
	// prefix is root's path relative to the git work tree root, split into
	// components; nil when root is not inside a work tree or is its root.
	prefix []string
	// inherited holds the patterns of the directories above root.
	inherited []*ignorePattern
	// denied, when set, judges each entry before it is reported: an
	// entry it refuses is left out (a directory with everything beneath
	// it) and counted.
	denied *gateTally
}

func newWalker(root string) *walker {
	w := &walker{root: root}
	base := gitRoot(root)
	if base == "" {
		return w
	}
	if rel, err := filepath.Rel(base, root); err == nil && rel != "." {
		w.prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	ps := readIgnoreFile(filepath.Join(base, ".git", "info", "exclude"), nil)
	dir := base
	for i, name := range w.prefix {
		ps = append(ps, readIgnoreFile(filepath.Join(dir, ".gitignore"), w.prefix[:i])...)
		if len(ps) > 0 && ignored(ps, w.prefix[:i+1], true) {
			ps = nil // root lies inside an ignored directory: searched on request
			break
		}
		dir = filepath.Join(dir, name)
	}
	w.inherited = ps
	return w
}

// gitRoot returns the nearest directory at or above dir that holds a .git
// entry, or "".
func gitRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// readIgnoreFile parses a gitignore file whose patterns apply below domain
// (path components relative to the work tree root). A missing or unreadable
// file has no patterns.
func readIgnoreFile(path string, domain []string) []*ignorePattern {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []*ignorePattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, parseIgnorePattern(line, domain))
	}
	return ps
}

// walk calls fn for every entry under the root that git would not ignore,
// in lexical order, directories before their contents. rel is the entry's
// slash-separated path relative to the root. fn may return fs.SkipDir to
// leave a directory out, errStop to end the walk (walk then returns nil),
// or another error to end the walk with it. walk returns ctx.Err() when
// ctx is cancelled.
func (w *walker) walk(ctx context.Context, fn func(rel string, d fs.DirEntry) error) error {
	comps := append([]string(nil), w.prefix...)
	err := w.walkDir(ctx, w.root, "", comps, w.inherited, fn)
	if err == errStop {
		return nil
	}
	return err
}

func (w *walker) walkDir(ctx context.Context, dir, rel string, comps []string, ps []*ignorePattern,
	fn func(string, fs.DirEntry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if own := readIgnoreFile(filepath.Join(dir, ".gitignore"), comps); len(own) > 0 {
		ps = append(ps[:len(ps):len(ps)], own...)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // an unreadable directory is left out, like git does
	}
	path := append(comps[:len(comps):len(comps)], "")
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		isDir := e.IsDir()
		path[len(path)-1] = name
		if ignored(ps, path, isDir) {
			continue
		}
		r := name
		if rel != "" {
			r = rel + "/" + name
		}
		if !w.denied.check(filepath.Join(dir, name), r, e) {
			continue
		}
		switch err := fn(r, e); {
		case err == fs.SkipDir:
			continue
		case err != nil:
			return err
		}
		if isDir {
			// The callee copies path before changing it; patterns copy their domain.
			if err := w.walkDir(ctx, filepath.Join(dir, name), r, path, ps, fn); err != nil {
				return err
			}
		}
	}
	return nil
}
