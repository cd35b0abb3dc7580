package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// tailLines is how many recent log lines each extension keeps in memory for
// /extensions list, failure reasons and `synaps extensions logs`.
const tailLines = 200

// maxLogFile is the size at which a log file is rotated to <id>.log.1, so a
// chatty extension cannot fill the disk.
const maxLogFile = 8 << 20

// logSink records one extension's stderr and synaps's notes about it, in
// extensions/logs/<id>.log and in a bounded in-memory tail.
type logSink struct {
	mu sync.Mutex
	// path is the log file; "" when logs are kept in memory only. Guarded by mu.
	path string
	// f is the open log file or nil; guarded by mu.
	f *os.File
	// size is f's current size; guarded by mu.
	size int64
	// tail is a ring of the last tailLines lines; next is the slot to
	// write; full says the ring has wrapped. Guarded by mu.
	tail []string
	next int
	full bool
}

func newLogSink(dir, id string) *logSink {
	s := &logSink{tail: make([]string, tailLines)}
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
	if info, err := f.Stat(); err == nil {
		s.size = info.Size()
	}
	s.f = f
	return s
}

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
	entry := time.Now().Format("2006-01-02T15:04:05.000Z07:00") + " " + prefix + line + "\n"
	if s.size+int64(len(entry)) > maxLogFile {
		s.f.Close()
		_ = os.Rename(s.path, s.path+".1")
		f, err := os.OpenFile(s.path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			s.f = nil
			return
		}
		s.f, s.size = f, 0
	}
	n, _ := s.f.WriteString(entry)
	s.size += int64(n)
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
}
