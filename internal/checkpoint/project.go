package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// What a sandboxed bash command changes in the project. The bash sandbox
// lets a command write only the project and the temporary directory, so
// the project's files before and after a command say what it changed:
//
//   - Before the turn's first command, the project is indexed (each
//     file's size, modification time, inode and mode) and the files'
//     contents are kept in a pack (pack.go), newest first, each of at
//     most MaxFileBytes, MaxBytes in all. A file whose stamp is the same
//     as in the previous turn's index reuses its kept content without
//     being read, so a turn after the first reads only what changed.
//   - After each command the project is indexed again (stat only): a file
//     whose stamp changed, or that is gone, is recorded as it was (its
//     object; past the bounds "not restorable"), a new file as created.
//
// Directories named in skipDirs, synaps's base directory, and what the
// walker leaves out (the app's
// walks as git sees the project: ignored files are not indexed) are not
// recorded, nor is anything past MaxIndexFiles files.

// MaxIndexFiles bounds the files an index holds: a larger project has
// the changes to the first ones recorded (in the walk's order), and no
// creations, which cannot be told from files past the bound.
const MaxIndexFiles = 20000

// skipDirs are directories never indexed: version control, and trees of
// dependencies that a package manager rebuilds.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true}

// Walker walks the project at root, calling fn with each entry's path
// relative to root ("/" separators); fs.SkipDir from fn for a directory
// skips it, another error ends the walk.
type Walker func(ctx context.Context, root string, fn func(rel string, d fs.DirEntry) error) error

// WalkAll walks every entry under root, in lexical order.
func WalkAll(ctx context.Context, root string, fn func(rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		return fn(filepath.ToSlash(rel), d)
	})
}

// stamp is what the index holds of one file.
type stamp struct {
	size, mtime int64
	ino         uint64
	mode        uint32
	kept        packRef // the kept content; pack "" when not kept
}

func (a stamp) same(b stamp) bool {
	return a.size == b.size && a.mtime == b.mtime && a.ino == b.ino && a.mode == b.mode
}

// snapshot is the project's index at the turn's first bash command.
type snapshot struct {
	root  string
	files map[string]stamp // by absolute path
	full  bool             // not cut at MaxIndexFiles
}

var errFull = errors.New("index full")

// index stats the project's regular files, leaving out the tree at
// skip (synaps's base directory, when the project holds it: its record
// and sessions change as synaps works, not by the command).
func index(ctx context.Context, root, skip string, walk Walker) (*snapshot, error) {
	s := &snapshot{root: root, files: map[string]stamp{}, full: true}
	err := walk(ctx, root, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			if skipDirs[d.Name()] || skip != "" && filepath.Join(root, filepath.FromSlash(rel)) == skip {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // links and devices are not recorded
		}
		if len(s.files) >= MaxIndexFiles {
			s.full = false
			return errFull
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone since the directory was read
		}
		st := stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ino: inode(fi), mode: uint32(fi.Mode().Perm())}
		s.files[filepath.Join(root, filepath.FromSlash(rel))] = st
		return nil
	})
	if err != nil && err != errFull {
		return nil, err
	}
	return s, nil
}

// BeforeCommand makes sure the current point has the project at root
// indexed and its contents kept before a bash command runs: at the
// turn's first command (or the first in root). Without a point it does
// nothing.
func (s *Store) BeforeCommand(ctx context.Context, root string, walk Walker) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.points) == 0 || s.snap != nil && s.snapGen == s.gen && s.snap.root == root {
		return nil
	}
	cur, err := index(ctx, root, s.base, walk)
	if err != nil {
		return err
	}
	prev := s.snap
	if prev != nil && prev.root != root {
		prev = nil
	}
	// Newest first: what was changed last is likeliest to change again.
	paths := make([]string, 0, len(cur.files))
	for p := range cur.files {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		a, b := cur.files[paths[i]], cur.files[paths[j]]
		if a.mtime != b.mtime {
			return a.mtime > b.mtime
		}
		return paths[i] < paths[j]
	})
	// A pack less than half used is not reused: its files are read again.
	reuse := map[string]bool{}
	if prev != nil {
		used := map[string]int64{}
		for p, old := range prev.files {
			if st, ok := cur.files[p]; ok && old.kept.pack != "" && old.same(st) {
				used[old.kept.pack] += old.kept.n
			}
		}
		for name, n := range used {
			reuse[name] = 2*n >= s.packs.size(name)
		}
	}
	var w *packWriter
	var kept int64
	for _, p := range paths {
		st := cur.files[p]
		if st.size > MaxFileBytes || kept+st.size > MaxBytes {
			continue // not kept: recorded as not restorable if changed
		}
		if prev != nil {
			if old, ok := prev.files[p]; ok && reuse[old.kept.pack] && old.same(st) {
				st.kept = old.kept
			}
		}
		if st.kept.pack == "" {
			b, err := os.ReadFile(p)
			if err != nil || int64(len(b)) != st.size {
				continue // unreadable, or changing while read
			}
			if w == nil {
				if w, err = s.packs.create(); err != nil {
					break
				}
			}
			var ok bool
			if st.kept, ok = w.add(b); !ok {
				continue
			}
		}
		kept += st.size
		cur.files[p] = st
	}
	if w != nil && !w.close() {
		// The turn's pack is not all there: what it was to hold is not kept.
		for p, st := range cur.files {
			if st.kept.pack == w.name {
				st.kept = packRef{}
				cur.files[p] = st
			}
		}
	}
	s.snap, s.snapGen = cur, s.gen
	s.packs.prune(s.snap.packsUsed())
	return nil
}

// packsUsed are the packs the index's entries lie in.
func (sn *snapshot) packsUsed() map[string]bool {
	used := map[string]bool{}
	if sn != nil {
		for _, st := range sn.files {
			if st.kept.pack != "" {
				used[st.kept.pack] = true
			}
		}
	}
	return used
}

// AfterCommand records in the current point what the command changed in
// the project since BeforeCommand indexed it: each file changed or
// removed as it was, each file created as created.
func (s *Store) AfterCommand(ctx context.Context, walk Walker) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.points) == 0 || s.snap == nil || s.snapGen != s.gen {
		return nil
	}
	before := s.snap
	after, err := index(ctx, before.root, s.base, walk)
	if err != nil {
		return err
	}
	var changed, created []string
	for p, old := range before.files {
		if now, ok := after.files[p]; ok {
			if !now.same(old) {
				changed = append(changed, p)
			}
			continue
		}
		// Not in the new index: gone, or past its bound.
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			changed = append(changed, p)
		}
	}
	if before.full && after.full {
		for p := range after.files {
			if _, ok := before.files[p]; !ok {
				created = append(created, p)
			}
		}
	}
	sort.Strings(changed)
	sort.Strings(created)
	had := map[string]bool{}
	for _, f := range s.points[len(s.points)-1].Files {
		had[f.Path] = true
	}
	var files []File
	for _, p := range changed {
		if !had[p] {
			old := before.files[p]
			f := File{Path: p, Existed: true, Size: old.size, Mode: old.mode, TooLarge: true, By: "bash"}
			if old.kept.pack != "" {
				if b, err := s.packs.read(old.kept); err == nil {
					if f.Object, err = s.objs.put(b); err == nil {
						f.TooLarge = false
					}
				}
			}
			files = append(files, f)
		}
	}
	for _, p := range created {
		if !had[p] {
			files = append(files, File{Path: p, By: "bash"})
		}
	}
	s.add(files...)
	return nil
}

// NotRestorable counts the files of p that a rewind cannot put back.
func (p Point) NotRestorable() int {
	n := 0
	for _, f := range p.Files {
		if f.TooLarge {
			n++
		}
	}
	return n
}
