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
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
	// used is the usage saved with the messages; guarded by mu.
	used llm.Usage
	// baseDir is where the session's index entry goes (see index.go).
	baseDir string
	// entry is the session's index entry, kept current on append and
	// written at Sync and Close when dirty; guarded by mu.
	entry indexEntry
	dirty bool
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
	dir := Dir(baseDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the sessions directory: %w", err)
	}
	now := time.Now()
	id := NewID(now)
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

// Open opens an existing session to continue it: its messages are read
// (a cut-short last line is skipped) and new records are appended. A
// session another process writes is refused with a *LockedError naming
// that process. An id that cannot be one (CheckID) is an *IDError.
func Open(baseDir, id string) (s *Session, err error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	path := filepath.Join(Dir(baseDir), id+".jsonl")
	if _, err := os.Stat(path); err != nil {
		_, err = Read(path) // its error says what is missing and what to do
		return nil, err
	}
	l, err := acquire(baseDir, id)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			l.release()
		}
	}()
	data, err := Read(path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	// A line cut short by a crash is not data, and the next record must not
	// be glued onto it: start on a fresh line.
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		if last, err := lastByte(path); err == nil && last != '\n' {
			_, _ = f.WriteString("\n")
		}
	}
	s = &Session{ID: id, Path: path, f: f, messages: data.Messages, used: data.Usage, Warnings: data.Warnings(),
		baseDir: baseDir, entry: *entryFromData(id, data), dirty: true, lock: l}
	if data.Compaction != nil {
		s.Summary = data.Compaction.Summary
	}
	s.Subagents = data.Subagents
	// A session stopped while tools ran ends with tool calls that have no
	// results; the model APIs refuse such a conversation. Answer them, in
	// the file too, so the resumed session is whole.
	if m := unanswered(s.messages); m != nil {
		if err := s.Append(*m); err != nil {
			f.Close()
			return nil, err
		}
	}
	return s, nil
}

func lastByte(path string) (byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var b [1]byte
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return '\n', err
	}
	_, err = f.ReadAt(b[:], info.Size()-1)
	return b[0], err
}

// TitleNext titles the session with title, what the user typed, when
// the next user message is its first: that message is what a command
// expanded to, and the session list should say what the user asked.
func (s *Session) TitleNext(title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.title = strings.TrimSpace(title)
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

// Usage is the tokens the session's requests have used, over every run
// of it (what earlier runs saved, then this one's).
func (s *Session) Usage() llm.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
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

// Sync makes everything written so far durable; the agent calls it at turn
// boundaries.
func (s *Session) Sync() error {
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
	s.writeIndex()
	return err
}

// View returns the conversation so far without copying it: the caller
// must not change it. (Messages are only ever appended, so what View
// returned stays as it was.)
func (s *Session) View() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.messages[:len(s.messages):len(s.messages)]
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

// Info summarises a session for listings.
type Info struct {
	ID       string `json:"id"`
	Time     string `json:"time"`
	Model    string `json:"model,omitempty"`
	Cwd      string `json:"cwd,omitempty"`
	Messages int    `json:"messages"`
	Title    string `json:"title"` // the first user message, cut short
	// Damaged counts the lines of the file that could not be read and
	// were skipped; the rest of the session can be resumed.
	Damaged int `json:"damaged_lines,omitempty"`
	// Error says why the session cannot be read at all ("" when it can).
	Error string `json:"error,omitempty"`
}

// List returns the sessions, newest first. Empty sessions (a header and
// nothing else) are left out. It reads the session index, not the
// sessions (see index.go); what it had to rebuild is not said (ListWarn).
func List(baseDir string) ([]Info, error) {
	out, _, err := ListWarn(baseDir)
	return out, err
}

// ListWarn is List, with warnings about index entries that could not be
// trusted and were rebuilt from their session files.
func ListWarn(baseDir string) ([]Info, []string, error) {
	entries, err := os.ReadDir(Dir(baseDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []Info
	var warnings []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed since the directory was read
		}
		info, listed, warning, err := indexed(baseDir, id, fi)
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if err != nil && nothingSaved(filepath.Join(Dir(baseDir), e.Name())) {
			// Killed while its file was being created: not even the
			// header line was completed, so there is nothing to resume.
			continue
		}
		if err != nil {
			// Listed, not hidden: the user sees that it is there and why
			// it cannot be resumed.
			info := Info{ID: id, Error: err.Error()}
			if t, perr := time.Parse("20060102-150405", idPart(id, 0)+"-"+idPart(id, 1)); perr == nil {
				info.Time = t.UTC().Format(time.RFC3339Nano)
			}
			out = append(out, info)
			continue
		}
		if !listed {
			// A launch that sent nothing (older versions wrote a file for
			// it): nothing to resume, so neither listed nor continued.
			continue
		}
		out = append(out, info)
	}
	// Newest first by the header's nanosecond time: two sessions started
	// in the same second have ids that do not sort by age.
	sort.Slice(out, func(i, j int) bool {
		ti, ei := time.Parse(time.RFC3339Nano, out[i].Time)
		tj, ej := time.Parse(time.RFC3339Nano, out[j].Time)
		if ei == nil && ej == nil && !ti.Equal(tj) {
			return ti.After(tj)
		}
		return out[i].ID > out[j].ID
	})
	return out, warnings, nil
}

// Latest returns the id of the newest session, or "" when there is none.
// When the newest cannot be read, that is an error: continuing an older
// session instead would be a silent surprise.
func Latest(baseDir string) (string, error) {
	id, _, err := LatestWarn(baseDir)
	return id, err
}

// LatestWarn is Latest, with the warnings of ListWarn.
func LatestWarn(baseDir string) (string, []string, error) {
	list, warnings, err := ListWarn(baseDir)
	if err != nil || len(list) == 0 {
		return "", warnings, err
	}
	if list[0].Error != "" {
		return "", warnings, fmt.Errorf("the newest session, %s, cannot be read: %s; resume another with --resume ID (`synaps sessions list` shows them)", list[0].ID, list[0].Error)
	}
	return list[0].ID, warnings, nil
}

// Resolve finds the session ref names: its id, or a unique start of one
// (20261203-1020 for 20261203-102010-ab3c), as `synaps send` takes. A ref
// no session starts with comes back as it is, so that opening it says
// what is missing; one that several start with is an error listing
// them. A ref that cannot be an id (CheckID: "../x", "/etc/passwd") is
// an *IDError.
func Resolve(baseDir, ref string) (string, error) {
	if ref == "" {
		return ref, nil
	}
	if err := CheckID(ref); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(Dir(baseDir), ref+".jsonl")); err == nil {
		return ref, nil
	}
	entries, err := os.ReadDir(Dir(baseDir))
	if err != nil {
		return ref, nil
	}
	var found []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && !e.IsDir() && strings.HasPrefix(id, ref) {
			found = append(found, id)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		sort.Sort(sort.Reverse(sort.StringSlice(found)))
		shown := found
		if len(shown) > 5 {
			shown = shown[:5]
		}
		more := ""
		if len(found) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(found)-len(shown))
		}
		return "", fmt.Errorf("%d sessions start with %q (%s%s); give more of the id", len(found), ref, strings.Join(shown, ", "), more)
	}
	return ref, nil
}

// LatestIn returns the id of the session started in dir (its header's
// cwd) that was used last — the one whose file was written last — or ""
// when dir has none: --continue goes on with this project's latest
// conversation, as Claude Code's does, never with one whose tools ran
// somewhere else, and a session resumed yesterday counts as newer than
// one started the day before and left. A session that cannot be read and
// was started after dir's newest is an error, as in LatestWarn: it may be
// dir's.
func LatestIn(baseDir, dir string) (string, []string, error) {
	list, warnings, err := ListWarn(baseDir)
	if err != nil {
		return "", warnings, err
	}
	here := sameDirAs(dir)
	best, bestUsed := "", time.Time{}
	for _, info := range list {
		if info.Error != "" {
			if best == "" {
				return "", warnings, fmt.Errorf("the newest session, %s, cannot be read: %s; resume another with --resume ID (`synaps sessions list` shows them)", info.ID, info.Error)
			}
			continue
		}
		if !here(info.Cwd) {
			continue
		}
		var used time.Time
		if fi, err := os.Stat(filepath.Join(Dir(baseDir), info.ID+".jsonl")); err == nil {
			used = fi.ModTime()
		}
		if best == "" || used.After(bestUsed) {
			best, bestUsed = info.ID, used
		}
	}
	return best, warnings, nil
}

// sameDirAs returns SameDir(·, dir) for many sessions' directories: dir
// is resolved once and each other directory once, however many sessions
// were started in it.
func sameDirAs(dir string) func(string) bool {
	clean := filepath.Clean(dir)
	resolved, err := filepath.EvalSymlinks(dir)
	seen := map[string]bool{}
	return func(cwd string) bool {
		if cwd == "" || dir == "" {
			return false
		}
		if filepath.Clean(cwd) == clean {
			return true
		}
		if err != nil {
			return false
		}
		same, ok := seen[cwd]
		if !ok {
			r, rerr := filepath.EvalSymlinks(cwd)
			same = rerr == nil && r == resolved
			seen[cwd] = same
		}
		return same
	}
}

// SameDir reports whether a and b name the same directory: equal once
// cleaned, or once symbolic links are resolved (/tmp and /private/tmp).
func SameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// nothingSaved reports whether the file at path holds no complete line:
// a session file whose creation was cut short (a crash between creating
// it and finishing the header).
func nothingSaved(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	return n < len(buf) && !bytes.Contains(buf[:n], []byte{'\n'})
}

// idPart is the i-th dash-separated part of a session id, or "".
func idPart(id string, i int) string {
	parts := strings.SplitN(id, "-", 3)
	if i < len(parts) {
		return parts[i]
	}
	return ""
}

func firstText(m llm.Message) string {
	for _, b := range m.Content {
		if b.Type == llm.BlockText && !b.Inject && strings.TrimSpace(b.Text) != "" {
			return b.Text
		}
	}
	return ""
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Interrupted is the result recorded for a tool call whose session stopped
// before it finished.
const Interrupted = "interrupted: synaps stopped before this tool call finished; it may or may not have taken effect"

// unanswered returns a message with an error result for each tool call of
// the last message that has none, or nil.
func unanswered(msgs []llm.Message) *llm.Message {
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != llm.RoleAssistant {
		return nil
	}
	var results []llm.Block
	for _, b := range msgs[len(msgs)-1].Content {
		if b.Type == llm.BlockToolUse {
			results = append(results, llm.Block{Type: llm.BlockToolResult, ToolUseID: b.ID, Content: Interrupted, IsError: true})
		}
	}
	if len(results) == 0 {
		return nil
	}
	return &llm.Message{Role: llm.RoleUser, Content: results}
}
