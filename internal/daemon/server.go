package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/filelock"
)

// DefaultIdleExit is how long a daemon with no client and no running
// turn stays (config daemon_idle_exit, `synaps daemon serve --idle-exit`).
const DefaultIdleExit = 30 * time.Minute

// requestWait is how long a new connection has for its hello and
// request.
const requestWait = 30 * time.Second

// Server is a running daemon. One lock (mu) guards all of its state: the
// sessions, their clients and replay buffers.
type Server struct {
	base     string
	paths    Paths
	idleExit time.Duration
	started  time.Time
	ln       net.Listener
	lockFile *os.File
	logf     func(format string, args ...any)

	mu       sync.Mutex
	sessions map[string]*hosted // by handle
	conns    int                // connected clients
	next     int                // the next handle's number
	active   time.Time          // when the daemon last stopped being idle
	stopping bool

	done chan struct{} // closed when Serve returns
	stop chan struct{} // closed to make Serve return
	once sync.Once
	// pumps counts the attached clients' writers still running, so that
	// shutdown lets them write their last frames (ended) before the
	// process goes.
	pumps sync.WaitGroup
}

// Options configure Listen.
type Options struct {
	// IdleExit is how long the daemon stays with no client connected and
	// no turn running; 0 is DefaultIdleExit, negative never.
	IdleExit time.Duration
	// Logf reports what the daemon does (its log file); nil: nothing.
	Logf func(format string, args ...any)
}

// Listen makes this process the daemon of base: it takes run/daemon.lock
// (refused, naming the pid, when a live daemon holds it), replaces a
// socket left by a dead daemon and listens on it (0600).
func Listen(base string, o Options) (*Server, error) {
	if errUnsupported != nil {
		return nil, errUnsupported
	}
	p := PathsOf(base)
	if err := p.checkSocket(); err != nil {
		return nil, err
	}
	if err := p.ensureDir(); err != nil {
		return nil, err
	}
	lf, err := os.OpenFile(p.Lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", p.Lock, err)
	}
	if err := filelock.TryLock(lf); err != nil {
		lf.Close()
		pid, _ := os.ReadFile(p.Lock)
		return nil, fmt.Errorf("a synaps daemon already runs for %s (pid %s); `synaps daemon status` says more", base, strings.TrimSpace(string(pid)))
	}
	// Holding the lock, any socket file is a dead daemon's.
	if err := os.Remove(p.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		lf.Close()
		return nil, fmt.Errorf("cannot remove the stale socket %s: %w", p.Socket, err)
	}
	ln, err := listenPrivate(p.Socket)
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("cannot listen on %s: %w", p.Socket, err)
	}
	if err := os.Chmod(p.Socket, 0o600); err != nil {
		ln.Close()
		lf.Close()
		return nil, err
	}
	lf.Truncate(0)
	lf.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	idle := o.IdleExit
	if idle == 0 {
		idle = DefaultIdleExit
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	now := time.Now()
	return &Server{base: base, paths: p, idleExit: idle, started: now, ln: ln, lockFile: lf, logf: logf,
		sessions: map[string]*hosted{}, active: now, done: make(chan struct{}), stop: make(chan struct{})}, nil
}

// Serve accepts clients until Stop, a stop frame, idle exit or ctx's end;
// then it ends every session (SIGTERM, then SIGKILL after stopGrace) and
// removes the socket.
func (s *Server) Serve(ctx context.Context) error {
	defer close(s.done)
	go func() {
		for {
			nc, err := s.ln.Accept()
			if err != nil {
				return
			}
			go s.handle(nc)
		}
	}()
	tick := time.NewTicker(s.idleTick())
	defer tick.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			s.logf("stopping: %v", ctx.Err())
			break loop
		case <-s.stop:
			break loop
		case <-tick.C:
			if s.idleFor() {
				s.logf("idle for %s with no client and no turn running: exiting", s.idleExit)
				break loop
			}
		}
	}
	s.shutdown()
	return nil
}

func (s *Server) idleTick() time.Duration {
	if s.idleExit <= 0 {
		return time.Hour
	}
	return min(max(s.idleExit/4, 10*time.Millisecond), time.Second)
}

// idleFor reports whether the daemon has been idle for idleExit: no
// client connected and no session's turn running.
func (s *Server) idleFor() bool {
	if s.idleExit <= 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.idleNow() {
		s.active = time.Now()
		return false
	}
	return time.Since(s.active) >= s.idleExit
}

// idleNow: called with s.mu held.
func (s *Server) idleNow() bool {
	if s.conns > 0 {
		return false
	}
	for _, h := range s.sessions {
		if h.busy {
			return false
		}
	}
	return true
}

// lastWordsWait bounds how long shutdown waits for clients to be sent
// that their sessions ended.
const lastWordsWait = 2 * time.Second

// Stop makes Serve return.
func (s *Server) Stop() { s.once.Do(func() { close(s.stop) }) }

// Done is closed when Serve has returned.
func (s *Server) Done() <-chan struct{} { return s.done }

func (s *Server) shutdown() {
	s.ln.Close()
	s.mu.Lock()
	s.stopping = true
	var all []*hosted
	for _, h := range s.sessions {
		all = append(all, h)
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, h := range all {
		wg.Add(1)
		go func() { defer wg.Done(); s.end(h, "the daemon stopped") }()
	}
	wg.Wait()
	// Each ended session's clients have their ended frame queued under
	// s.mu (wait), and their pumps write it: a client must read why its
	// session ended, not lose the daemon mid-sentence. A client that does
	// not read is not waited for long.
	s.mu.Lock()
	s.mu.Unlock()
	written := make(chan struct{})
	go func() { s.pumps.Wait(); close(written) }()
	select {
	case <-written:
	case <-time.After(lastWordsWait):
	}
	os.Remove(s.paths.Socket)
	s.lockFile.Close()
}

// handle serves one connection: a hello, then one request, or an
// attachment that lasts until the client leaves.
func (s *Server) handle(nc net.Conn) {
	c := newConn(nc)
	cl := &client{c: c, nc: nc}
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
	defer func() {
		s.drop(cl)
		s.mu.Lock()
		s.conns--
		s.active = time.Now()
		s.mu.Unlock()
	}()
	// A client has requestWait to say what it wants: one that connects
	// and says nothing must not keep the daemon from its idle exit.
	nc.SetReadDeadline(time.Now().Add(requestWait))
	f, err := c.read()
	if err != nil {
		tellBad(c, err)
		return
	}
	if f.Type != TypeHello || f.Version != Protocol {
		c.write(&Frame{Type: TypeError, Error: fmt.Sprintf("this daemon speaks protocol %d and wants a hello first; got %s version %d: stop the daemon (synaps daemon stop) after upgrading synaps", Protocol, f.Type, f.Version)})
		return
	}
	if err := c.write(&Frame{Type: TypeOK, Version: Protocol, PID: os.Getpid()}); err != nil {
		return
	}
	f, err = c.read()
	if err != nil {
		tellBad(c, err)
		return
	}
	switch f.Type {
	case TypeStatus:
		c.write(&Frame{Type: TypeStatus, Status: s.status()})
	case TypeSessions:
		c.write(&Frame{Type: TypeSessions, Sessions: s.list()})
	case TypeStop:
		answer, stop := s.stopReq(f.Session)
		c.write(answer)
		if stop {
			s.Stop()
		}
	case TypeSend:
		c.write(s.send(f.Session, f.Text))
	case TypeNew, TypeAttach:
		s.attach(cl, f)
	default:
		c.write(&Frame{Type: TypeError, Error: fmt.Sprintf("unknown request %q", f.Type)})
	}
}

// tellBad answers a frame that could not be understood with an error
// saying why; a connection that broke gets nothing.
func tellBad(c *conn, err error) {
	var bad badFrame
	if errors.As(err, &bad) {
		c.write(&Frame{Type: TypeError, Error: bad.Error()})
	}
}
