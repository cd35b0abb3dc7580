package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/llm"
)

// The session index: sessions/index/<id>.json holds what a listing shows
// of a session (its Info) and which bytes of the session file that Info
// describes. `sessions list`, --continue and the picker read these small
// files instead of the sessions themselves, so listing costs the number of
// sessions, not their bytes (200 sessions of 1000 tool calls are 71 MB).
//
// The index is a cache, never the truth. An entry is used only when the
// session file still has the size and modification time it recorded; a
// file that has grown since (another synaps appending, or one killed
// before its last index write) is read from the recorded size on, which
// costs only the new bytes; anything else (an entry that cannot be read,
// a file that shrank or was rewritten) is rebuilt from the whole file,
// with a warning. A session writes its entry at turn boundaries (Sync)
// and when it closes.

// indexVersion is the format version of an index entry; an entry of
// another version is rebuilt.
const indexVersion = 1

// indexEntry is one file of the index.
type indexEntry struct {
	V int `json:"v"`
	Info
	// Compacted is whether the session continues a compacted one (such a
	// session is listed even before its first message).
	Compacted bool `json:"compacted,omitempty"`
	// Size and ModTime (Unix nanoseconds) are those of the session file
	// when the entry was written: the bytes it describes.
	Size    int64 `json:"size"`
	ModTime int64 `json:"mtime"`
}

// IndexDir is the index directory of a base dir.
func IndexDir(baseDir string) string { return filepath.Join(Dir(baseDir), "index") }

func indexPath(baseDir, id string) string { return filepath.Join(IndexDir(baseDir), id+".json") }

// readIndex reads the entry of id: (nil, nil) when there is none, an
// error when there is one that cannot be used.
func readIndex(baseDir, id string) (*indexEntry, error) {
	data, err := os.ReadFile(indexPath(baseDir, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var e indexEntry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("not an index entry (%v)", err)
	}
	if e.V != indexVersion || e.ID != id || e.Size <= 0 {
		return nil, errors.New("not an index entry of this session")
	}
	return &e, nil
}

// writeIndex replaces the entry of e.ID, atomically: a reader sees the old
// entry or the new one. It is a cache, so it is not fsynced: a crash
// leaves an old entry, which the size check catches.
func writeIndex(baseDir string, e *indexEntry) error {
	dir := IndexDir(baseDir)
	e.V = indexVersion
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	// The directory is made when it is missing, not checked every time.
	f, err := os.CreateTemp(dir, e.ID+".*.tmp")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		f, err = os.CreateTemp(dir, e.ID+".*.tmp")
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), indexPath(baseDir, e.ID))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// entryFromData is the index entry of a session read whole.
func entryFromData(id string, d *Data) *indexEntry {
	e := &indexEntry{
		Info:      Info{ID: id, Time: d.Header.Time, Model: d.Header.Model, Cwd: d.Header.Cwd, Messages: len(d.Messages), Damaged: d.Skipped},
		Compacted: d.Compaction != nil,
	}
	if d.Model != "" {
		e.Model = d.Model
	}
	for i := range d.Messages {
		if e.noteTitle(&d.Messages[i], d.Title) {
			break
		}
	}
	return e
}

// noteTitle sets the title from m when there is none yet and m is a user
// message with text: title, what the user typed (Record.Title), else
// the message's text. It reports whether the entry has a title.
func (e *indexEntry) noteTitle(m *llm.Message, title string) bool {
	if e.Title != "" {
		return true
	}
	if title != "" {
		e.Title = oneLine(title, 60)
		return true
	}
	if m.Role == llm.RoleUser {
		if t := firstText(*m); t != "" {
			e.Title = oneLine(t, 60)
		}
	}
	return e.Title != ""
}

// listed reports whether the session is worth listing: a launch that
// sent nothing is not.
func (e *indexEntry) listed() bool { return e.Messages > 0 || e.Compacted || e.Damaged > 0 }

// readTail brings e up to date with the records of the file at path from
// e.Size on, which a writer appended after e was written. Only complete
// lines are read: a record being written is left for the next listing.
func (e *indexEntry) readTail(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(e.Size, io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, size, eof, err := readLine(br, MaxRecord)
		if err != nil {
			return err
		}
		if eof {
			return nil // no '\n' yet: not a complete record
		}
		e.Size += int64(size)
		if line == nil {
			e.Damaged++
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			if len(trimSpace(line)) > 0 {
				e.Damaged++
			}
			continue
		}
		switch r.Type {
		case TypeMessage:
			if r.Message != nil && r.Agent == "" { // a subagent's are not the session's
				e.Messages++
				e.noteTitle(r.Message, r.Title)
			}
		case TypeCompaction:
			e.Compacted = true
		case TypeModel:
			if r.Agent == "" {
				e.Model = r.Model
			}
		}
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}

// indexed is the Info of session id, whose file has info fi, from the
// index when it can be trusted, else from the file (and the index is
// rewritten). warning is non-empty when an entry was there but could not
// be trusted. ok is false for a session not worth listing.
func indexed(baseDir, id string, fi fs.FileInfo) (info Info, ok bool, warning string, err error) {
	path := filepath.Join(Dir(baseDir), id+".jsonl")
	e, ierr := readIndex(baseDir, id)
	switch {
	case ierr != nil:
		warning = fmt.Sprintf("session index %s: %v; rebuilt from %s", indexPath(baseDir, id), ierr, path)
		e = nil
	case e == nil:
	case e.Size == fi.Size() && e.ModTime == fi.ModTime().UnixNano():
		return e.Info, e.listed(), "", nil
	case e.Size < fi.Size():
		// Appended to since: read what is new.
		if err := e.readTail(path); err == nil {
			e.ModTime = fi.ModTime().UnixNano()
			if e.Size == fi.Size() {
				writeIndex(baseDir, e) // best effort: the next listing reads the tail again
			}
			return e.Info, e.listed(), "", nil
		}
		e = nil
	default:
		warning = fmt.Sprintf("session index %s is stale (it describes %d bytes of %s, which has %d); rebuilt from the file", indexPath(baseDir, id), e.Size, path, fi.Size())
		e = nil
	}
	d, err := Read(path)
	if err != nil {
		return Info{}, false, warning, err
	}
	e = entryFromData(id, d)
	// The entry describes the file as read: if it changed meanwhile (a
	// writer appending), it is not written, and the next listing reads it
	// again.
	if after, serr := os.Stat(path); serr == nil && after.Size() == fi.Size() && after.ModTime().Equal(fi.ModTime()) {
		e.Size, e.ModTime = fi.Size(), fi.ModTime().UnixNano()
		writeIndex(baseDir, e)
	}
	return e.Info, e.listed(), warning, nil
}
