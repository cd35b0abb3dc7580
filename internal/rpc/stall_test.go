package rpc

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/host/hosttest"
)

// stuckConn is a client that sends commands but never reads what it is
// sent: every write blocks until the test lets go.
type stuckConn struct {
	in      io.Reader
	lines   Conn
	release chan struct{}
	once    sync.Once
	wrote   chan struct{} // closed at the first write
}

func (c *stuckConn) ReadFrame(ctx context.Context) ([]byte, error) { return c.lines.ReadFrame(ctx) }

func (c *stuckConn) WriteFrame(ctx context.Context, _ []byte) error {
	c.once.Do(func() { close(c.wrote) })
	select {
	case <-c.release:
		return errors.New("gone")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A client that stops reading never stalls the session: its events fill
// its buffer, it is dropped, and a turn another front-end runs ends.
func TestStuckClientDoesNotStallTheSession(t *testing.T) {
	s, _ := open(t, hosttest.Reply{Bash: "echo a"}, hosttest.Reply{Text: strings.Repeat("many words ", 200)})
	inR, inW := io.Pipe()
	c := &stuckConn{lines: Lines(inR, io.Discard), release: make(chan struct{}), wrote: make(chan struct{})}
	served := make(chan error, 1)
	go func() { served <- Serve(context.Background(), s, c, Options{Name: "stuck", Buffer: 4}) }()
	<-c.wrote // the ready event: the client is subscribed and stuck
	if err := s.Run(context.Background(), host.Input{Text: "talk a lot"}); err != nil {
		t.Fatalf("the turn beside a stuck client: %v", err)
	}
	if n := len(s.Messages()); n != 4 {
		t.Errorf("%d messages, want 4", n)
	}
	close(c.release)
	inW.Close()
	<-served
}
