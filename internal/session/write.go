package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/synaps-cli/synaps/internal/llm"
)

// Writing a session: every record is one line, written in one write as it
// happens (a crash cuts at most the last line short); the file itself is
// created with the first record after the header, so a launch that sends
// nothing leaves no file. Sync makes the lines durable at turn boundaries
// and brings the session's index entry up to date.

// createFile writes the pending header and the first record to a new
// file. Called with s.mu held. They go in one write: a kill between two
// writes left a file with a header and no record, a session that
// --continue does not list although its file exists (TestDurabilitySIGKILL
// hit it once in a while).
func (s *Session) createFile(first []byte) error {
	f, err := os.OpenFile(s.Path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create session file: %w", err)
	}
	b, err := json.Marshal(s.header)
	if err == nil {
		_, err = f.Write(append(append(b, '\n'), first...))
	}
	if err != nil {
		f.Close()
		os.Remove(s.Path)
		return fmt.Errorf("writing session %s: %w", s.ID, err)
	}
	s.f, s.header = f, nil
	return nil
}

// Append records a complete message, bounded as it is saved (see bound
// and fit): what the session holds in memory and what a resume reads are
// the same.
func (s *Session) Append(m llm.Message) error { return s.AppendUsed(m, llm.Usage{}) }

// AppendUsed is Append for a model's answer with the usage of the request
// that produced it, saved with it and added to Usage.
func (s *Session) AppendUsed(m llm.Message, u llm.Usage) error {
	m = bound(m)
	r := Record{Type: TypeMessage, Message: &m}
	if m.Role == llm.RoleUser {
		s.mu.Lock()
		if s.title != "" && s.parent == nil && s.entry.Title == "" {
			r.Title = s.title
		}
		s.title = ""
		s.mu.Unlock()
	}
	if u != (llm.Usage{}) {
		r.Usage = usageOf(u)
	}
	line, err := s.encode(r)
	if err != nil {
		return err
	}
	if len(line) > MaxRecord {
		m = fit(m)
		if line, err = s.encode(r); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.messages = append(s.messages, m)
	if s.pictureFree == len(s.messages)-1 {
		s.pictureFree += pictureFree(s.messages[s.pictureFree:])
	}
	s.used = s.used.Add(u)
	if s.parent == nil {
		s.entry.Messages = len(s.messages)
		s.entry.noteTitle(&m, r.Title)
	}
	s.mu.Unlock()
	if p := s.parent; p != nil && u != (llm.Usage{}) {
		// What a child spends, the session spends: a resume reads it
		// back from the child's records too (Read).
		p.mu.Lock()
		p.used = p.used.Add(u)
		p.mu.Unlock()
	}
	return s.write(line)
}

// AppendRecord writes any record (compaction notes).
func (s *Session) AppendRecord(r Record) error { return s.append(r) }

func (s *Session) append(r Record) error {
	line, err := s.encode(r)
	if err != nil {
		return err
	}
	return s.write(line)
}

// encode is r as one line of the file.
func (s *Session) encode(r Record) ([]byte, error) {
	r.V = Version
	r.Agent = s.agent
	if r.Time == "" {
		r.Time = time.Now().UTC().Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func (s *Session) write(line []byte) error {
	if s.parent != nil {
		return s.parent.write(line)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("session is closed")
	}
	if s.f == nil && s.header != nil {
		if err := s.createFile(line); err != nil {
			return err
		}
		s.dirty = true
		return nil
	}
	// One write per record: a crash leaves at most this line cut short.
	if _, err := s.f.Write(line); err != nil {
		return fmt.Errorf("writing session %s: %w", s.ID, err)
	}
	s.dirty = true
	return nil
}

// writeIndex brings the session's index entry up to date with the file,
// when it has changed. Called with s.mu held and s.f open. The index is a
// cache: failing to write it costs the next listing a read of the file.
func (s *Session) writeIndex() {
	if !s.dirty {
		return
	}
	fi, err := s.f.Stat()
	if err != nil {
		return
	}
	s.entry.Size, s.entry.ModTime = fi.Size(), fi.ModTime().UnixNano()
	if writeIndex(s.baseDir, &s.entry) == nil {
		s.dirty = false
	}
}

// Sync makes everything written so far durable and brings the session's
// index entry up to date; the agent calls it when a user message's work
// ends.
func (s *Session) Sync() error { return s.sync(true) }

// SyncTurn makes everything written so far durable, as Sync, but leaves
// the index entry as it is: the agent calls it between the model turns
// of one user message, where rewriting the entry (a temporary file,
// write, rename: a third of synaps's own CPU per tool call) bought
// nothing a listing needs — a listing reads what was appended since the
// entry (readTail), at most one user message's records.
func (s *Session) SyncTurn() error { return s.sync(false) }

func (s *Session) sync(index bool) error {
	if s.parent != nil {
		// A subagent's records are made durable with the parent's turn:
		// the parent syncs once the agent call's result is saved, so a
		// child costs no fsync of its own.
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Sync()
	if index {
		s.writeIndex()
	}
	return err
}
