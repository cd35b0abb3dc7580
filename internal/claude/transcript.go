package claude

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/llm"
)

// Transcript is a Claude-shaped mirror of a synaps session, the file a
// payload's transcript_path names: JSON lines of {"type","message",…}
// with Anthropic content blocks, written compact, because hooks read it
// (one greps `"role":"assistant"` to find the last answer). It is kept
// under synaps's base directory, not in ~/.claude, so Claude Code's own
// history is left alone.
type Transcript struct {
	Path      string
	SessionID string
	Cwd       string

	mu      sync.Mutex
	written int    // messages already in the file
	last    string // uuid of the last line, the next line's parentUuid
}

// TranscriptPath is where the mirror of session id lives.
func TranscriptPath(baseDir, id string) string {
	return filepath.Join(baseDir, "claude-transcripts", id+".jsonl")
}

// agentTranscript writes a subagent's conversation (a JSON array of
// messages) where Claude Code keeps it, beside the session's mirror:
// <session mirror without .jsonl>/subagents/agent-<id>.jsonl. It returns
// the path, or "" when there is no mirror to put it beside or it could
// not be written.
func agentTranscript(s Session, agentID string, msgs json.RawMessage) string {
	if s.TranscriptPath == "" || agentID == "" || len(msgs) == 0 {
		return ""
	}
	var conv []llm.Message
	if json.Unmarshal(msgs, &conv) != nil {
		return ""
	}
	dir := strings.TrimSuffix(s.TranscriptPath, filepath.Ext(s.TranscriptPath))
	t := &Transcript{Path: filepath.Join(dir, "subagents", "agent-"+agentID+".jsonl"), SessionID: s.ID, Cwd: s.Cwd}
	if t.Sync(conv) != nil {
		return ""
	}
	return t.Path
}

// Sync appends the messages the file does not have yet. msgs is the
// whole conversation; a conversation shorter than what was written (a
// compaction, /clear) starts the file again.
func (t *Transcript) Sync(msgs []llm.Message) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	flag := os.O_APPEND | os.O_CREATE | os.O_WRONLY
	if len(msgs) < t.written {
		t.written, t.last = 0, ""
		flag |= os.O_TRUNC
	}
	if len(msgs) == t.written {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(t.Path, flag, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for _, m := range msgs[t.written:] {
		id := NewUUID()
		var parent any
		if t.last != "" {
			parent = t.last
		}
		line, err := json.Marshal(map[string]any{
			"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": t.Cwd,
			"sessionId": t.SessionID, "type": string(m.Role), "message": m, "uuid": id, "timestamp": now,
		})
		if err != nil {
			f.Close()
			return err
		}
		w.Write(line)
		w.WriteByte('\n')
		t.last = id
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	t.written = len(msgs)
	return f.Close()
}

// NewUUID is a random version 4 UUID: Claude Code's transcript and
// stream-json lines carry one each, and some readers key on it.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
