// Package checkpoint records, per user prompt, what the built-in write and
// edit tools changed in files (each file's content before its first change
// in that turn, or that it did not exist), so that /rewind can put the
// files back as they were before an earlier prompt and remove the ones
// created since (Claude Code's checkpoints).
//
// The record of a session is one JSON file,
// <base>/checkpoints/<session-id>.json, bounded: a file larger than
// MaxFileBytes is not kept (its point says so, and rewinding leaves it
// alone), and when the kept contents pass MaxBytes the oldest points are
// dropped. Bash commands are not recorded: what a shell line changes is
// not known before it runs (docs/keys.md, "Checkpoints").
package checkpoint

import (
	"encoding/json"
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
	Existed bool   `json:"existed"`
	Content []byte `json:"content,omitempty"`
	Mode    uint32 `json:"mode,omitempty"`
	// TooLarge: it was larger than MaxFileBytes and is not restored.
	TooLarge bool `json:"too_large,omitempty"`
}

// Store is one session's record.
type Store struct {
	mu     sync.Mutex
	path   string // "" keeps it in memory only
	points []Point
}

// Open reads the record of session id under base (none yet: empty).
func Open(base, id string) *Store {
	s := &Store{path: filepath.Join(base, "checkpoints", id+".json")}
	if b, err := os.ReadFile(s.path); err == nil {
		_ = json.Unmarshal(b, &s.points) // a damaged record starts again
	}
	return s
}

// Begin starts the point of a new prompt.
func (s *Store) Begin(prompt string, messages int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.points = append(s.points, Point{Prompt: prompt, Messages: messages, Time: time.Now()})
	s.save()
}

// Record keeps path as it is now, before a tool changes it, unless the
// current point has it already. Without a point (no prompt yet) it does
// nothing.
func (s *Store) Record(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.points) == 0 {
		return
	}
	p := &s.points[len(s.points)-1]
	for _, f := range p.Files {
		if f.Path == path {
			return
		}
	}
	f := File{Path: path}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		f.Existed, f.Mode = true, uint32(st.Mode().Perm())
		if st.Size() > MaxFileBytes {
			f.TooLarge = true
		} else if b, err := os.ReadFile(path); err == nil {
			f.Content = b
		} else {
			f.TooLarge = true // unreadable: not restorable either
		}
	} else if err == nil {
		return // a directory or device: the tools refuse it anyway
	}
	p.Files = append(p.Files, f)
	s.bound()
	s.save()
}

// bound drops the oldest points while the contents pass MaxBytes; mu held.
func (s *Store) bound() {
	total := 0
	for _, p := range s.points {
		for _, f := range p.Files {
			total += len(f.Content)
		}
	}
	for total > MaxBytes && len(s.points) > 1 {
		for _, f := range s.points[0].Files {
			total -= len(f.Content)
		}
		s.points = s.points[1:]
	}
}

// save writes the record; mu held. A failure leaves the record in memory.
func (s *Store) save() {
	if s.path == "" {
		return
	}
	b, err := json.Marshal(s.points)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return
	}
	tmp := s.path + ".tmp"
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, s.path)
	}
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
				if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
					errs = append(errs, err)
					continue
				}
				if err := os.WriteFile(f.Path, f.Content, fs.FileMode(f.Mode)); err != nil {
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
	s.points = s.points[:i]
	s.save()
	return out, errors.Join(errs...)
}

// Adopt makes points the record (a session forked from another by a
// rewind of the conversation takes the points before it).
func (s *Store) Adopt(points []Point) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.points = append([]Point(nil), points...)
	s.bound()
	s.save()
}

// Truncate drops the points from i on (the conversation went back before
// them, the code stays).
func (s *Store) Truncate(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= 0 && i < len(s.points) {
		s.points = s.points[:i]
		s.save()
	}
}
