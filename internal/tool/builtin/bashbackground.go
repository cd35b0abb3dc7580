package builtin

// Sending a running bash call to the background, as Claude Code's
// ctrl+b does: the front-end asks (Backgrounder.Background) and every
// bash call running under a context that carries the Backgrounder
// returns at once with a result that names the shell's id and the file
// its output goes to; the command goes on, without its time limit, its
// output so far and all it prints after written to that file, and a
// last line says how it ended. The model reads the file with the read
// tool (as Claude Code 2's background tasks are read), and may stop the
// command with `kill -- -PGID`. The command still dies with synaps (the
// lifeline sentinel keeps its group).

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Backgrounder is a front-end's handle on the bash calls running under
// its contexts.
type Backgrounder struct {
	mu      sync.Mutex
	running map[chan struct{}]bool
	n       int    // shells sent to the background so far
	dir     string // where their output goes, made on first use
}

// NewBackgrounder returns a Backgrounder with no call running.
func NewBackgrounder() *Backgrounder {
	return &Backgrounder{running: map[chan struct{}]bool{}}
}

type backgrounderKey struct{}

// WithBackgrounder returns ctx carrying b: bash calls run under it can be
// sent to the background.
func WithBackgrounder(ctx context.Context, b *Backgrounder) context.Context {
	return context.WithValue(ctx, backgrounderKey{}, b)
}

// Background sends every running bash call to the background and says
// how many there were.
func (b *Backgrounder) Background() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for ch, open := range b.running {
		if open {
			close(ch)
			b.running[ch] = false
			n++
		}
	}
	return n
}

// Running says how many bash calls could be sent to the background now.
func (b *Backgrounder) Running() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, open := range b.running {
		if open {
			n++
		}
	}
	return n
}

// watch registers a running call: the channel closes when it is to go to
// the background; done unregisters it. Without a Backgrounder in ctx the
// channel is nil (never ready).
func watch(ctx context.Context) (ch <-chan struct{}, b *Backgrounder, done func()) {
	b, _ = ctx.Value(backgrounderKey{}).(*Backgrounder)
	if b == nil {
		return nil, nil, func() {}
	}
	c := make(chan struct{})
	b.mu.Lock()
	b.running[c] = true
	b.mu.Unlock()
	return c, b, func() {
		b.mu.Lock()
		delete(b.running, c)
		b.mu.Unlock()
	}
}

// outputFile makes the file a background shell's output goes to and its
// id (bash_1, bash_2 …).
func (b *Backgrounder) outputFile() (*os.File, string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir == "" {
		dir, err := os.MkdirTemp("", "synaps-background-")
		if err != nil {
			return nil, "", fmt.Errorf("cannot make a directory for background output: %w", err)
		}
		b.dir = dir
	}
	b.n++
	id := fmt.Sprintf("bash_%d", b.n)
	f, err := os.OpenFile(filepath.Join(b.dir, id+".output"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, "", fmt.Errorf("cannot make the background output file: %w", err)
	}
	return f, id, nil
}

// switchWriter is where a call's output goes: its bounded buffer until
// the call goes to the background, then the output file.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.w.Write(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// to sends what follows to w, after first writing what was kept (read
// under the lock: the copying goroutine writes to it).
func (s *switchWriter) to(w io.Writer, kept fmt.Stringer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	io.WriteString(w, kept.String()) //nolint:errcheck // a full disk loses output, not the command
	s.w = w
}

// backgroundResult is what the model reads when its call went to the
// background.
func backgroundResult(id string, pgid int, path string) string {
	return fmt.Sprintf("The user sent this command to the background: it runs on as shell %s (process group %d). "+
		"Its output so far and all it prints go to %s; read that file for its output (a last line says how it ended). "+
		"Stop it with `kill -- -%d`.", id, pgid, path, pgid)
}
