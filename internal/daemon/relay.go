package daemon

// Relaying: a client attached to a session, as its owner (its keys go
// to the session's UI) or an observer. Output reaches each client through
// a queue of its own, so a slow client never slows the session.

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// outQueue is how many frames a client may have waiting. A client that
// falls this far behind skips ahead: its output is dropped until it has
// written what it had, then it gets the screen again (resync). Nothing a
// client does, reading slowly or not at all, slows the session.
const outQueue = 1024

// clearScreen starts a resync: home, clear, then the replay.
const clearScreen = "\x1b[H\x1b[2J\x1b[3J"

// client is one connection attached to a session.
type client struct {
	c    *conn
	nc   net.Conn
	out  chan *Frame
	once sync.Once
	// Guarded by Server.mu.
	sess *hosted
	mode string
	gone bool
	// lagging: output was dropped for this client (its queue was full);
	// it gets the screen again once its queue is empty.
	lagging bool
}

// attach starts (new) or finds (attach) a session and relays it to cl
// until cl leaves or the session ends.
func (s *Server) attach(cl *client, f *Frame) {
	switch f.Mode {
	case "", ModeOwner, ModeObserve, ModeTakeover:
	default:
		cl.c.write(&Frame{Type: TypeError, Error: fmt.Sprintf("attach mode %q: use %s, %s or %s", f.Mode, ModeOwner, ModeObserve, ModeTakeover)})
		return
	}
	var h *hosted
	var err error
	if f.Type == TypeNew {
		h, err = s.start(f)
	} else {
		s.refreshIDs()
		s.mu.Lock()
		h, err = s.find(f.Session)
		s.mu.Unlock()
	}
	if err != nil {
		cl.c.write(&Frame{Type: TypeError, Error: err.Error()})
		return
	}
	cl.nc.SetReadDeadline(time.Time{}) // attached: it may be quiet for hours
	cl.out = make(chan *Frame, outQueue)
	s.pumps.Add(1)
	go func() {
		defer s.pumps.Done()
		s.pump(cl)
	}()

	s.mu.Lock()
	select {
	case <-h.ended:
		s.mu.Unlock()
		cl.c.write(&Frame{Type: TypeEnded, Reason: "the session has ended"})
		return
	default:
	}
	mode := f.Mode
	switch {
	case mode == ModeTakeover || mode == ModeOwner && h.owner == nil || mode == "" && h.owner == nil:
		if prev := h.owner; prev != nil {
			h.observers[prev] = true
			prev.mode = ModeObserve
			s.queue(prev, &Frame{Type: TypeMode, Mode: ModeObserve, Reason: "another client took over the input"})
		}
		h.owner, mode = cl, ModeOwner
	case mode == ModeOwner:
		s.mu.Unlock()
		cl.c.write(&Frame{Type: TypeError, Error: "another client owns this session's input; attach with --takeover to take it, or --observe to watch"})
		return
	default:
		h.observers[cl] = true
		mode = ModeObserve
	}
	cl.sess, cl.mode = h, mode
	s.queue(cl, &Frame{Type: TypeAttached, Session: h.id, Mode: mode, Text: h.handle})
	s.sendReplay(cl, h)
	s.mu.Unlock()
	if mode == ModeOwner {
		s.resize(h, f.Cols, f.Rows)
	}

	for {
		in, err := cl.c.read()
		if err != nil {
			var bad badFrame
			if errors.As(err, &bad) {
				s.mu.Lock()
				s.queue(cl, &Frame{Type: TypeError, Error: bad.Error()})
				s.mu.Unlock()
			}
			return
		}
		s.mu.Lock()
		owner := h.owner == cl
		s.mu.Unlock()
		switch in.Type {
		case TypeInput:
			if owner {
				h.master.Write(in.Data)
			}
		case TypeResize:
			if owner {
				s.resize(h, in.Cols, in.Rows)
			}
		case TypeDetach:
			return
		}
	}
}

// resize sets the session's terminal to the owner's size and has its UI
// redraw, so a client that attaches sees the screen as it is now.
func (s *Server) resize(h *hosted, cols, rows int) {
	setSize(h.master, cols, rows)
	redraw(h.cmd.Process)
}

// queue hands f to cl's writer without waiting. Output for a client too
// far behind is dropped (it lags, and resync brings it back); a control
// frame that does not fit drops the client. Called with s.mu held.
func (s *Server) queue(cl *client, f *Frame) {
	if cl.gone || cl.lagging && f.Type == TypeOutput {
		return
	}
	select {
	case cl.out <- f:
	default:
		if f.Type == TypeOutput {
			s.logf("a client is %d frames behind: its output is skipped until it catches up", outQueue)
			cl.lagging = true
			return
		}
		s.logf("dropping a client that does not read")
		s.detachLocked(cl)
		cl.nc.Close() // its writer may be stuck in a write to it
	}
}

// pump writes cl's queued frames; a write error ends the client. When it
// has written everything and its output was skipped, it asks for the
// screen again.
func (s *Server) pump(cl *client) {
	for f := range cl.out {
		if err := cl.c.write(f); err != nil {
			cl.nc.Close()
			for range cl.out {
			}
			return
		}
		if len(cl.out) == 0 {
			s.resync(cl)
		}
	}
	cl.nc.Close()
}

// resync gives a client that lagged the screen again: cleared, then the
// replay, then a redraw of the session's UI.
func (s *Server) resync(cl *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := cl.sess
	if !cl.lagging || cl.gone || h == nil {
		return
	}
	cl.lagging = false
	s.queue(cl, &Frame{Type: TypeOutput, Data: []byte(clearScreen)})
	s.sendReplay(cl, h)
	redraw(h.cmd.Process)
}

// drop removes cl from its session (its connection ended).
func (s *Server) drop(cl *client) {
	s.mu.Lock()
	s.detachLocked(cl)
	s.mu.Unlock()
	if cl.out == nil {
		cl.nc.Close()
	}
}

// detachLocked takes cl off its session and closes its queue (the pump
// then closes the connection). Called with s.mu held.
func (s *Server) detachLocked(cl *client) {
	if cl.gone {
		return
	}
	cl.gone = true
	if h := cl.sess; h != nil {
		if h.owner == cl {
			h.owner = nil
		}
		delete(h.observers, cl)
	}
	if cl.out != nil {
		close(cl.out)
	}
}
