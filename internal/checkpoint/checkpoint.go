// Package checkpoint records, per user prompt, what the built-in write and
// edit tools and the sandboxed bash tool changed in files (each file's
// content before its first change in that turn, or that it did not exist),
// so that /rewind can put the files back as they were before an earlier
// prompt and remove the ones created since (Claude Code's checkpoints).
//
// The record of a session is a directory, <base>/checkpoints/<session-id>/:
// log.jsonl, an append-only log of what happened (a point begun, a file
// recorded, points dropped; log.go), objects/, the files' contents kept
// by their SHA-256 (objects.go), and packs/, the contents a bash index
// keeps while the session runs (pack.go). Each change appends one line; the
// log is rewritten whole only when it has grown to several times what it
// holds. The record is bounded: a file larger than MaxFileBytes is not
// kept (its point says so, and rewinding leaves it alone), and when the
// kept contents pass MaxBytes the oldest points are dropped. A record of
// the older form, one <session-id>.json rewritten on each change, is
// still read.
//
// What a bash command changes is not known before it runs, so before the
// turn's first sandboxed command the project is indexed and its files'
// contents kept (project.go); after each command the index tells what it
// changed, created or removed.
package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Bounds of one session's record.
const (
	MaxFileBytes = 1 << 20  // a file's content kept at most
	MaxBytes     = 16 << 20 // every point's contents together
)

// Point is the state before one user prompt.
type Point struct {
	// Prompt is what the user sent (its first line is shown).
	Prompt string `json:"prompt"`
	// Messages is how many messages the conversation had before it.
	Messages int       `json:"messages"`
	Time     time.Time `json:"time"`
	// Files are the files the prompt's tools changed, as they were
	// before the first change.
	Files []File `json:"files,omitempty"`
}

// File is one file as it was before a turn changed it.
type File struct {
	Path string `json:"path"`
	// Existed is false for a file the turn created: rewinding removes it.
	Existed bool `json:"existed"`
	// Content is the file's content in a record of the older form; a
	// newer record keeps it in the objects directory, named Object.
	Content []byte `json:"content,omitempty"`
	Object  string `json:"object,omitempty"`
	Size    int64  `json:"size,omitempty"`
	Mode    uint32 `json:"mode,omitempty"`
	// TooLarge: it was larger than MaxFileBytes (or past the snapshot's
	// bound, or unreadable) and is not restored.
	TooLarge bool `json:"too_large,omitempty"`
	// By is the tool that changed it ("bash"; "" for write and edit).
	By string `json:"by,omitempty"`
}

// Store is one session's record.
type Store struct {
	mu     sync.Mutex
	dir    string // "" keeps it in memory only
	base   string // synaps's base directory, never indexed
	points []Point
	log    *logFile
	objs   objects
	packs  packs
	// snap is the project's index taken at the current turn's first
	// bash command; gen counts the changes of points that make it stale.
	snap    *snapshot
	snapGen int
	gen     int
}

// Open reads the record of session id under base (none yet: empty).
func Open(base, id string) *Store {
	dir := filepath.Join(base, "checkpoints", id)
	s := &Store{dir: dir, base: filepath.Clean(base), objs: objects{dir: filepath.Join(dir, "objects")}, packs: packs{dir: filepath.Join(dir, "packs")}}
	s.points, s.log = openLog(filepath.Join(dir, "log.jsonl"), filepath.Join(base, "checkpoints", id+".json"))
	// The packs of a bash index of a session that ended are no use.
	s.packs.prune(nil)
	return s
}

// Begin starts the point of a new prompt.
func (s *Store) Begin(prompt string, messages int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := Point{Prompt: prompt, Messages: messages, Time: time.Now()}
	s.points = append(s.points, p)
	s.gen++
	s.log.add(s.points, entry{Op: opPoint, Point: &p})
}

// Record keeps path as it is now, before a tool changes it, unless the
// current point has it already. Without a point (no prompt yet) it does
// nothing.
func (s *Store) Record(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.points) == 0 || s.has(path) {
		return
	}
	f := File{Path: path}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		f.Existed, f.Mode, f.Size = true, uint32(st.Mode().Perm()), st.Size()
		if st.Size() > MaxFileBytes {
			f.TooLarge = true
		} else if b, err := os.ReadFile(path); err == nil {
			if f.Object, err = s.objs.put(b); err != nil {
				f.Content = b // no objects directory: kept in the record
			}
		} else {
			f.TooLarge = true // unreadable: not restorable either
		}
	} else if err == nil {
		return // a directory or device: the tools refuse it anyway
	}
	s.add(f)
}

// has reports whether the current point has path; mu held.
func (s *Store) has(path string) bool {
	for _, f := range s.points[len(s.points)-1].Files {
		if f.Path == path {
			return true
		}
	}
	return false
}

// add appends files to the current point and the log, in one write;
// mu held.
func (s *Store) add(files ...File) {
	if len(files) == 0 {
		return
	}
	p := &s.points[len(s.points)-1]
	p.Files = append(p.Files, files...)
	es := make([]entry, len(files))
	for i := range files {
		es[i] = entry{Op: opFile, File: &files[i]}
	}
	s.log.add(s.points, es...)
	s.bound()
}

// size is what f's content takes.
func (f File) size() int64 {
	if f.Content != nil {
		return int64(len(f.Content))
	}
	if f.Object != "" {
		return f.Size
	}
	return 0
}

// bound drops the oldest points while the contents pass MaxBytes; mu held.
func (s *Store) bound() {
	var total int64
	for _, p := range s.points {
		for _, f := range p.Files {
			total += f.size()
		}
	}
	n := 0
	for total > MaxBytes && len(s.points)-n > 1 {
		for _, f := range s.points[n].Files {
			total -= f.size()
		}
		n++
	}
	if n > 0 {
		s.points = s.points[n:]
		s.gen++
		s.log.add(s.points, entry{Op: opDrop, N: n})
		s.objs.prune(s.referenced())
	}
}

// referenced are the objects the points use; mu held (or not yet
// shared).
func (s *Store) referenced() map[string]bool {
	keep := map[string]bool{}
	for _, p := range s.points {
		for _, f := range p.Files {
			if f.Object != "" {
				keep[f.Object] = true
			}
		}
	}
	return keep
}

// Points are the recorded points, oldest first.
func (s *Store) Points() []Point {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Point(nil), s.points...)
}

// Outcome is what a restore did.
type Outcome struct {
	Restored, Removed, Skipped []string
}

// RestoreCode puts every file the prompts from point i on changed back as
// it was before point i's prompt, newest first, and removes the files
// they created. The points from i on are dropped (the code is before
// them now).
func (s *Store) RestoreCode(i int) (Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.points) {
		return Outcome{}, fmt.Errorf("no checkpoint %d (there are %d)", i+1, len(s.points))
	}
	// The oldest point's record of a file wins: restore newest first;
	// each file is counted once, by what was done last to it.
	did := map[string]string{}
	var order []string
	var errs []error
	for j := len(s.points) - 1; j >= i; j-- {
		for _, f := range s.points[j].Files {
			if _, seen := did[f.Path]; !seen {
				order = append(order, f.Path)
			}
			switch {
			case f.TooLarge:
				did[f.Path] = "skipped"
			case !f.Existed:
				if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
				did[f.Path] = "removed"
			default:
				b := f.Content
				if b == nil && f.Object != "" {
					var err error
					if b, err = s.objs.get(f.Object); err != nil {
						errs = append(errs, fmt.Errorf("%s: its kept content is gone (%v)", f.Path, err))
						did[f.Path] = "skipped"
						continue
					}
				}
				if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
					errs = append(errs, err)
					continue
				}
				if err := os.WriteFile(f.Path, b, fs.FileMode(f.Mode)); err != nil {
					errs = append(errs, err)
					continue
				}
				did[f.Path] = "restored"
			}
		}
	}
	var out Outcome
	for _, p := range order {
		switch did[p] {
		case "restored":
			out.Restored = append(out.Restored, p)
		case "removed":
			out.Removed = append(out.Removed, p)
		case "skipped":
			out.Skipped = append(out.Skipped, p)
		}
	}
	s.cut(i)
	return out, errors.Join(errs...)
}

// cut keeps the points before i; mu held.
func (s *Store) cut(i int) {
	s.points = s.points[:i]
	s.gen++
	s.log.add(s.points, entry{Op: opCut, N: i})
	s.objs.prune(s.referenced())
}

// Adopt makes points the record, their kept contents taken from from's
// (a session forked from another by a rewind of the conversation takes
// the points before it).
func (s *Store) Adopt(from *Store, points []Point) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.points = append([]Point(nil), points...)
	s.gen++
	if from != nil && from != s {
		for o := range s.referenced() {
			s.objs.adopt(from.objs, o)
		}
	}
	s.log.rewrite(s.points)
	s.bound()
}

// Truncate drops the points from i on (the conversation went back before
// them, the code stays).
func (s *Store) Truncate(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= 0 && i < len(s.points) {
		s.cut(i)
	}
}

// Close lets go of the bash index's kept contents (the session ends;
// the next one indexes the project again).
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap = nil
	s.packs.prune(nil)
}
