// Package session keeps conversations as append-only JSONL files under
// $SYNAPS_BASE_DIR/sessions/<id>.jsonl: one typed, versioned record a line.
//
// Why JSONL and append-only: a crash (or SIGKILL) can only ever cut the last
// line short, and the reader skips a line it cannot parse instead of
// reading it as data, so every record completed before the crash survives.
// Writes are flushed to the OS as they happen and fsynced at turn
// boundaries, where the conversation is consistent.
package session

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/llm"
)

// Version is the record format version written into every record.
const Version = 1

// Record types.
const (
	TypeHeader     = "session"    // first line: id, time, model, cwd
	TypeMessage    = "message"    // one complete message
	TypeCompaction = "compaction" // this session continues a compacted one
	TypeSubagent   = "subagent"   // a subagent began: its id, type, parent call
	TypeModel      = "model"      // the session went on with another model (Model)
	// TypeCallReport is one tool call's per-call report (coverage): which
	// links judged it and what each said, and the verdict (Report, for
	// the call ToolUseID; Agent set for a subagent's call). `synaps why`
	// and `synaps replay` read it back.
	TypeCallReport = "call_report"
)

// Record is one line of a session file.
type Record struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	Time string `json:"time"`
	// Header fields.
	ID    string `json:"id,omitempty"`
	Model string `json:"model,omitempty"`
	Cwd   string `json:"cwd,omitempty"`
	// Message.
	Message *llm.Message `json:"message,omitempty"`
	// Usage is what the request that produced an assistant message cost,
	// so a resumed session shows the tokens it has used so far.
	Usage *Usage `json:"usage,omitempty"`
	// Compaction: the session this one was compacted from, and the summary
	// that stands for its messages.
	From    string `json:"from,omitempty"`
	Summary string `json:"summary,omitempty"`
	// Title, on the message that titles the session (its first user
	// message), is what the user typed when the message is not that: a
	// command's expansion is titled with the command line, /greet Ada.
	Title string `json:"title,omitempty"`
	// Agent is the subagent a record belongs to: its message records
	// and its "subagent" record carry it. The main conversation's
	// records have none.
	Agent string `json:"agent,omitempty"`
	// Subagent record: the agent definition's name, the parent's tool
	// call that started it, and the task's short description.
	AgentType       string `json:"agent_type,omitempty"`
	ParentToolUseID string `json:"parent_tool_use_id,omitempty"`
	Description     string `json:"description,omitempty"`
	// Deferred record: the ids of the calls a hook deferred (deferred.go).
	Deferred []string `json:"deferred,omitempty"`
	// Call report: the tool call it is about and the report (the
	// agent's CallReport, kept as JSON so this package needs no hook).
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Report    json.RawMessage `json:"report,omitempty"`
}

// Dir returns the sessions directory of a base dir.
func Dir(baseDir string) string { return filepath.Join(baseDir, "sessions") }

// NewID makes a session id like 20261202-130455-k3f9: sortable by time,
// unique enough with four random base-36 characters.
func NewID(now time.Time) string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
	var b [4]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return now.Format("20060102-150405") + "-" + string(b[:])
}

// Session is an open session file. Its methods are safe for concurrent use.
type Session struct {
	// ID is the session id; Path its file.
	ID, Path string
	// Summary stands for the messages of the session this one was
	// compacted from; "" when it was not.
	Summary string
	// Warnings say what Open found damaged in the file and how the
	// conversation was repaired, each naming the file (and line).
	Warnings []string
	// Subagents are the subagents of the earlier runs of a session Open
	// read (their transcripts, for showing); nil for a new session.
	Subagents []*Subagent

	mu sync.Mutex
	// f is the open file, appended to; guarded by mu. It is nil until
	// the first record after the header is written (see header).
	f *os.File
	// header is the first line of a session not yet on disk; guarded by
	// mu. A launch that sends nothing leaves no file, so --continue and
	// `sessions list` never land on an empty session.
	header *Record
	// closed is set by Close; guarded by mu.
	closed bool
	// messages are the conversation so far; guarded by mu.
	messages []llm.Message
	// pictureFree is how many of the first messages carry no picture or
	// document (PictureFree); guarded by mu.
	pictureFree int
	// used is the usage saved with the messages; guarded by mu.
	used llm.Usage
	// baseDir is where the session's index entry goes (see index.go).
	baseDir string
	// entry is the session's index entry, kept current on append and
	// written at Sync and Close when dirty; guarded by mu.
	entry indexEntry
	dirty bool
	// deferred are the calls a resumed session waits on (deferred.go);
	// guarded by mu.
	deferred *Deferred
	// title is what the next user message is titled with, if it titles
	// the session (TitleNext); guarded by mu.
	title string
	// lock is the session's writer lock (lock.go), held from Create or
	// Open to Close.
	lock *lock
	// parent is the session a subagent's transcript is written into
	// (Child); nil for a session of its own. agent is the child's id,
	// put on every record it writes.
	parent *Session
	agent  string
}

// Child opens the transcript of a subagent inside s: its records go into
// s's file, marked with the child's id, so the session file holds the
// child's whole conversation (read back as Data.Subagents) while s's own
// conversation stays as it was. The child's usage adds to s's. The
// returned session is for the child's loop; closing it writes nothing.
func (s *Session) Child(id, agentType, parentToolUseID, description string) (*Session, error) {
	c := &Session{ID: s.ID, Path: s.Path, parent: s, agent: id, baseDir: s.baseDir}
	err := c.append(Record{Type: TypeSubagent, AgentType: agentType, ParentToolUseID: parentToolUseID, Description: description})
	return c, err
}

// Create starts a new session. Its file is written with the first record
// (a message, a compaction note): until then nothing is on disk, so a
// launch that sends nothing leaves no session behind. The directory is
// made now, so a base dir synaps cannot write to is said at start.
func Create(baseDir, model, cwd string) (*Session, error) {
	return CreateID(baseDir, model, cwd, "")
}

// CreateID is Create with the id chosen by the caller (--session-id, as
// Claude Code's): it must be a valid id, and no session of that id may
// exist, saved or still being written; "" makes a new id.
func CreateID(baseDir, model, cwd, id string) (*Session, error) {
	dir := Dir(baseDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the sessions directory: %w", err)
	}
	now := time.Now()
	if id == "" {
		id = NewID(now)
	} else {
		if err := CheckID(id); err != nil {
			return nil, err
		}
		if _, err := os.Lstat(filepath.Join(dir, id+".jsonl")); err == nil {
			return nil, fmt.Errorf("session %s already exists; give a new id, or go on with it with --resume %s", id, id)
		}
	}
	// Locked from the start, before the file exists: the daemon finds the
	// session its child writes by the lock's owner.
	l, err := acquire(baseDir, id)
	if err != nil {
		return nil, err
	}
	h := Record{V: Version, Type: TypeHeader, Time: now.UTC().Format(time.RFC3339Nano), ID: id, Model: model, Cwd: cwd}
	return &Session{ID: id, Path: filepath.Join(dir, id+".jsonl"), header: &h, baseDir: baseDir, lock: l,
		entry: indexEntry{Info: Info{ID: id, Time: h.Time, Model: model, Cwd: cwd}}}, nil
}

// Cwd is the directory the session was started in (its header's cwd);
// "" when the header did not say.
func (s *Session) Cwd() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entry.Cwd
}

// Model is the model the session runs on: the header's, or the last one
// it switched to (SetModel); "" when it did not say.
func (s *Session) Model() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entry.Model
}

// SetModel records that the session goes on with model name, so that a
// resume picks up the model it last used: in the header while nothing is
// on disk, else as a "model" record. The same model again writes nothing.
func (s *Session) SetModel(name string) error {
	s.mu.Lock()
	if s.entry.Model == name || s.parent != nil {
		s.mu.Unlock()
		return nil
	}
	s.entry.Model = name
	s.dirty = true
	if s.header != nil {
		s.header.Model = name
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	return s.append(Record{Type: TypeModel, Model: name})
}

// Saved reports whether the session has a file: whether it can be
// resumed.
func (s *Session) Saved() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.header == nil
}

// CreateCompacted starts a session that continues session from: summary
// stands for its messages.
func CreateCompacted(baseDir, model, cwd, from, summary string) (*Session, error) {
	s, err := Create(baseDir, model, cwd)
	if err != nil {
		return nil, err
	}
	s.entry.Compacted = true
	if err := s.append(Record{Type: TypeCompaction, From: from, Summary: summary}); err != nil {
		s.Close()
		return nil, err
	}
	s.Summary = summary
	return s, s.Sync()
}

// Usage is the tokens the session's requests have used, over every run
// of it (what earlier runs saved, then this one's).
func (s *Session) Usage() llm.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// View returns the conversation so far without copying it: the caller
// must not change it. (Messages are only ever appended, so what View
// returned stays as it was.)
func (s *Session) View() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.messages[:len(s.messages):len(s.messages)]
}

// PictureFree is how many of the first messages of View carry no picture
// and no document: a request bounding the pictures it sends looks only
// at the messages after them, so that the walk does not grow with a long
// session of text. (Messages are only appended, so the count only grows.)
func (s *Session) PictureFree() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pictureFree
}

// pictureFree counts msgs' leading messages with no image or document.
func pictureFree(msgs []llm.Message) int {
	for i := range msgs {
		for j := range msgs[i].Content {
			if len(msgs[i].Content[j].Images) > 0 {
				return i
			}
		}
	}
	return len(msgs)
}

// Messages returns a copy of the conversation so far.
func (s *Session) Messages() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Message(nil), s.messages...)
}

// Close syncs and closes the file. A session that never wrote a record
// leaves no file.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.parent != nil {
		return nil // a subagent's transcript: the parent's file is closed with it
	}
	// The lock goes last (deferred, so after the file is synced and
	// closed): the next writer starts from the complete file.
	defer s.lock.release()
	if s.f == nil {
		return nil
	}
	err := s.f.Sync()
	s.writeIndex()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f = nil
	return err
}
