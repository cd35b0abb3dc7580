package session

import (
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/llm"
)

// Opening a session to resume it: the file is read (what is damaged is
// skipped and said), the writer lock taken, and tool calls left without
// results by a stop are answered, so the resumed conversation is one the
// model APIs accept.

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
		baseDir: baseDir, entry: *entryFromData(id, data), dirty: true, lock: l, pictureFree: pictureFree(data.Messages)}
	if data.Compaction != nil {
		s.Summary = data.Compaction.Summary
	}
	s.Subagents = data.Subagents
	// A session stopped while tools ran ends with tool calls that have no
	// results; the model APIs refuse such a conversation. Answer them, in
	// the file too, so the resumed session is whole.
	if s.deferred = deferredOf(data); s.deferred != nil {
		// The calls a hook deferred wait for the next turn, which runs
		// them (TakeDeferred).
		return s, nil
	}
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
