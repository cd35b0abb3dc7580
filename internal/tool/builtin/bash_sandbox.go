package builtin

import "sync"

// sandboxLog collects the lines the sandbox's proxy says while a command
// runs (a connection to a host not allowed), for the command's result.
type sandboxLog struct {
	mu  sync.Mutex
	buf []string
}

func (l *sandboxLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range l.buf {
		if b == line {
			return
		}
	}
	l.buf = append(l.buf, line)
}

func (l *sandboxLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.buf...)
}
