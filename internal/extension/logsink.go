package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/filelock"
)

// tailLines is how many recent log lines each extension keeps in memory for
// /extensions list, failure reasons and `synaps extensions logs`.
const tailLines = 200

// maxLogFile is the size at which a log file is rotated to <id>.log.1, so a
// chatty extension cannot fill the disk.
const maxLogFile = 8 << 20

// logSink records one extension's stderr and synaps's notes about it, in
// extensions/logs/<id>.log and in a bounded in-memory tail.
//
// Several synaps processes (parallel sessions) write the same plugin's log
// at once. Each entry is appended under an exclusive flock on
// <id>.log.lock, and under that lock the writer first follows the path if
// another process has rotated the file and rotates only when the file at
// the path — not its own count — has reached the limit. So the file is
// rotated once however many processes write, and no entry goes to a file
// that a second rotation has already removed.
type logSink struct {
	mu sync.Mutex
	// path is the log file; "" when logs are kept in memory only. Guarded by mu.
	path string
	// f is the open log file or nil; guarded by mu.
	f *os.File
	// lock is the open <id>.log.lock, or nil when it could not be opened
	// (then rotation is not safe against other processes). Guarded by mu.
	lock *os.File
	// max is the rotation size (maxLogFile; tests shorten it). Guarded by mu.
	max int64
	// tail is a ring of the last tailLines lines; next is the slot to
	// write; full says the ring has wrapped. Guarded by mu.
	tail []string
	next int
	full bool
}

func newLogSink(dir, id string) *logSink {
	s := &logSink{tail: make([]string, tailLines), max: maxLogFile}
	if dir == "" {
		return s
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s
	}
	s.path = filepath.Join(dir, id+".log")
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.path = ""
		return s
	}
	s.f = f
	s.lock, err = os.OpenFile(s.path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		s.lock = nil
		s.appendEntry(fmt.Sprintf("%s [synaps] cannot open the log's lock file (%v); with parallel sessions, rotation may lose lines\n", stamp(), err))
	}
	return s
}

func stamp() string { return time.Now().Format("2006-01-02T15:04:05.000Z07:00") }

// stderr records a line the extension wrote to stderr.
func (s *logSink) stderr(line string) { s.write("", line) }

// note records something synaps observed about the extension.
func (s *logSink) note(format string, args ...any) {
	s.write("[synaps] ", fmt.Sprintf(format, args...))
}

func (s *logSink) write(prefix, line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail[s.next] = prefix + line
	s.next = (s.next + 1) % len(s.tail)
	if s.next == 0 {
		s.full = true
	}
	if s.f == nil {
		return
	}
	s.appendEntry(stamp() + " " + prefix + line + "\n")
}

// appendEntry appends one entry to the log file, rotating it first when
// the entry would take it past max. Called with mu held and f open.
func (s *logSink) appendEntry(entry string) {
	if s.lock != nil {
		if filelock.Lock(s.lock) == nil {
			defer filelock.Unlock(s.lock)
		}
	}
	cur, err := s.f.Stat()
	if err != nil {
		return
	}
	// Another process rotated the file: write where the path points now.
	if at, err := os.Stat(s.path); err != nil || !os.SameFile(cur, at) {
		if !s.reopen() {
			return
		}
		if cur, err = s.f.Stat(); err != nil {
			return
		}
	}
	if size := cur.Size(); size > 0 && size+int64(len(entry)) > s.max {
		_ = os.Rename(s.path, s.path+".1")
		if !s.reopen() {
			return
		}
	}
	_, _ = s.f.WriteString(entry)
}

// reopen opens the file at path again (creating it), closing the old one.
func (s *logSink) reopen() bool {
	s.f.Close()
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.f = nil
		return false
	}
	s.f = f
	return true
}

// lines returns up to n recent lines, oldest first.
func (s *logSink) lines(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []string
	if s.full {
		all = append(append(all, s.tail[s.next:]...), s.tail[:s.next]...)
	} else {
		all = append(all, s.tail[:s.next]...)
	}
	if n > 0 && len(all) > n {
		all = all[len(all)-n:]
	}
	return all
}

// stderrTail returns the last n lines the extension itself wrote (not
// synaps's notes), for failure reasons.
func (s *logSink) stderrTail(n int) []string {
	var out []string
	for _, l := range s.lines(0) {
		if len(l) >= 9 && l[:9] == "[synaps] " {
			continue
		}
		out = append(out, l)
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func (s *logSink) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
}
