package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/session"
)

// ReplayLimit bounds what a session keeps of its output for clients that
// attach later; older output is dropped from the front.
const ReplayLimit = 4 << 20

// outQueue is how many frames a client may have waiting. A client that
// falls this far behind skips ahead: its output is dropped until it has
// written what it had, then it gets the screen again (resync). Nothing a
// client does, reading slowly or not at all, slows the session.
const outQueue = 1024

// preludeLimit bounds a session's prelude.
const preludeLimit = 4 << 10

// clearScreen starts a resync: home, clear, then the replay.
const clearScreen = "\x1b[H\x1b[2J\x1b[3J"

// chunk is the most output one frame carries.
const chunk = 32 << 10

// DefaultIdleExit is how long a daemon with no client and no running
// turn stays (config daemon_idle_exit, `synaps daemon serve --idle-exit`).
const DefaultIdleExit = 30 * time.Minute

// requestWait is how long a new connection has for its hello and
// request.
const requestWait = 30 * time.Second

// maxSocketPath is the longest Unix socket path (sun_path, 108 bytes
// with its NUL on Linux).
const maxSocketPath = 107

// stopGrace is how long a session's UI has to end after SIGTERM (it ends
// its extensions and syncs its session) before it is killed.
const stopGrace = 8 * time.Second

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
}

// hosted is one session: its UI's process in a pseudo-terminal.
type hosted struct {
	handle  string
	cmd     *exec.Cmd
	master  *os.File
	link    *os.File // the daemon's end of the session's link (fd 3 there)
	cwd     string
	started time.Time
	release func() // withdraws the process group from the lifeline
	ended   chan struct{}
	outDone chan struct{} // closed when readOutput has read the last output

	// Guarded by Server.mu.
	id     string
	busy   bool
	replay []byte
	// prelude is the session's first output, up to preludeLimit: where
	// its UI set the terminal's modes (bracketed paste, keyboard
	// reports). A replay that no longer starts there sends it first.
	prelude   []byte
	trimmed   bool // the replay has lost its start
	owner     *client
	observers map[*client]bool
}

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
	p := PathsOf(base)
	if len(p.Socket) > maxSocketPath {
		return nil, fmt.Errorf("the daemon's socket path %s is %d bytes, more than a Unix socket allows (%d); set SYNAPS_BASE_DIR to a shorter directory", p.Socket, len(p.Socket), maxSocketPath)
	}
	if err := p.ensureDir(); err != nil {
		return nil, err
	}
	lf, err := os.OpenFile(p.Lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", p.Lock, err)
	}
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lf.Close()
		pid, _ := os.ReadFile(p.Lock)
		return nil, fmt.Errorf("a synaps daemon already runs for %s (pid %s); `synaps daemon status` says more", base, strings.TrimSpace(string(pid)))
	}
	// Holding the lock, any socket file is a dead daemon's.
	if err := os.Remove(p.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		lf.Close()
		return nil, fmt.Errorf("cannot remove the stale socket %s: %w", p.Socket, err)
	}
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", p.Socket)
	syscall.Umask(old)
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
	os.Remove(s.paths.Socket)
	s.lockFile.Close()
}

// end stops a session's UI: SIGTERM (it saves and ends its extensions),
// SIGKILL to its group after stopGrace.
func (s *Server) end(h *hosted, why string) {
	s.logf("ending session %s (pid %d): %s", h.handle, h.cmd.Process.Pid, why)
	_ = syscall.Kill(-h.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-h.ended:
	case <-time.After(stopGrace):
		_ = syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
		<-h.ended
	}
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
		c.write(s.stopReq(f.Session))
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

func (s *Server) status() *Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &Status{PID: os.Getpid(), Started: s.started.UTC().Format(time.RFC3339), Socket: s.paths.Socket,
		Sessions: len(s.sessions), Clients: s.conns - 1}
	if s.idleExit > 0 {
		st.IdleExit = s.idleExit.String()
	}
	return st
}

// refreshIDs learns which session file each hosted UI writes, from the
// session locks (a UI may have started, resumed or compacted one since).
func (s *Server) refreshIDs() {
	owners := session.Owners(s.base)
	byPID := map[int]string{}
	for id, o := range owners {
		byPID[o.PID] = id
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.sessions {
		if id, ok := byPID[h.cmd.Process.Pid]; ok {
			h.id = id
		}
	}
}

func (s *Server) list() []SessionInfo {
	s.refreshIDs()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []SessionInfo{}
	for _, h := range s.sessions {
		out = append(out, SessionInfo{ID: h.id, Handle: h.handle, PID: h.cmd.Process.Pid, Cwd: h.cwd,
			Started: h.started.UTC().Format(time.RFC3339), Busy: h.busy, Owner: h.owner != nil, Watch: len(h.observers)})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Started < out[j].Started || out[i].Started == out[j].Started && out[i].Handle < out[j].Handle
	})
	return out
}

// find looks a session up by session id, handle or a unique prefix of
// its id. Called with s.mu held.
func (s *Server) find(name string) (*hosted, error) {
	var hits []*hosted
	for _, h := range s.sessions {
		if h.id == name || h.handle == name {
			return h, nil
		}
		if name != "" && h.id != "" && strings.HasPrefix(h.id, name) {
			hits = append(hits, h)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		return nil, fmt.Errorf("%q names %d sessions of the daemon; give more of the id (synaps daemon sessions)", name, len(hits))
	case name == "" && len(s.sessions) == 1:
		for _, h := range s.sessions {
			return h, nil
		}
	case name == "":
		return nil, fmt.Errorf("the daemon runs %d sessions; name one (synaps daemon sessions)", len(s.sessions))
	}
	return nil, fmt.Errorf("no session %q runs in the daemon (synaps daemon sessions lists them)", name)
}

func (s *Server) stopReq(name string) *Frame {
	if name == "" {
		s.logf("stop requested")
		s.Stop()
		return &Frame{Type: TypeOK}
	}
	s.refreshIDs()
	s.mu.Lock()
	h, err := s.find(name)
	s.mu.Unlock()
	if err != nil {
		return &Frame{Type: TypeError, Error: err.Error()}
	}
	s.end(h, "stopped by a client")
	return &Frame{Type: TypeOK}
}

// send gives text to a session's UI as if it was typed at its input: a
// new message when the session is idle, steering (or queued) while a
// turn runs, as the UI does with typed text.
func (s *Server) send(name, text string) *Frame {
	if strings.TrimSpace(text) == "" {
		return &Frame{Type: TypeError, Error: "nothing to send: give the text as the second argument"}
	}
	s.refreshIDs()
	s.mu.Lock()
	h, err := s.find(name)
	var id string
	if h != nil {
		id = h.id
	}
	s.mu.Unlock()
	if err != nil {
		return &Frame{Type: TypeError, Error: err.Error()}
	}
	if err := writeLink(h.link, linkMsg{Input: text}); err != nil {
		return &Frame{Type: TypeError, Error: fmt.Sprintf("session %s did not take the text: %v", name, err)}
	}
	return &Frame{Type: TypeOK, Session: id}
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
	go s.pump(cl)

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
	_ = syscall.Kill(-h.cmd.Process.Pid, syscall.SIGWINCH)
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
	_ = syscall.Kill(-h.cmd.Process.Pid, syscall.SIGWINCH)
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

// start runs a new session's UI: f's executable and arguments, in f's
// cwd with f's environment, on a new pseudo-terminal, with the link on fd 3.
func (s *Server) start(f *Frame) (*hosted, error) {
	if !filepath.IsAbs(f.Exe) {
		return nil, fmt.Errorf("new session: the synaps executable %q is not an absolute path", f.Exe)
	}
	if fi, err := os.Stat(f.Cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("new session: the working directory %q is not a directory", f.Cwd)
	}
	master, slave, err := openPTY()
	if err != nil {
		return nil, err
	}
	defer slave.Close()
	setSize(master, f.Cols, f.Rows)
	ours, theirs, err := linkPair()
	if err != nil {
		master.Close()
		return nil, err
	}
	defer theirs.Close()
	cmd := exec.Command(f.Exe, f.Args...)
	cmd.Dir = f.Cwd
	cmd.Env = append(withoutLink(f.Env), LinkEnv+"=3")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.SysProcAttr = sessionAttr()
	if err := cmd.Start(); err != nil {
		master.Close()
		ours.Close()
		return nil, fmt.Errorf("new session: cannot start %s: %w", f.Exe, err)
	}
	h := &hosted{cmd: cmd, master: master, link: ours, cwd: f.Cwd, started: time.Now(),
		release: lifeline.Guard(cmd.Process.Pid), ended: make(chan struct{}), outDone: make(chan struct{}), observers: map[*client]bool{}}
	s.mu.Lock()
	if s.stopping {
		s.mu.Unlock()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		return nil, errors.New("the daemon is stopping")
	}
	s.next++
	h.handle = "s" + strconv.Itoa(s.next)
	s.sessions[h.handle] = h
	s.mu.Unlock()
	s.logf("session %s: pid %d in %s: %s", h.handle, cmd.Process.Pid, f.Cwd, strings.Join(f.Args, " "))
	go s.readOutput(h)
	go s.readLink(h)
	go s.wait(h)
	return h, nil
}

// readOutput copies the session's terminal output to the replay buffer
// and every client. It never waits on a client.
func (s *Server) readOutput(h *hosted) {
	defer close(h.outDone)
	buf := make([]byte, chunk)
	for {
		n, err := h.master.Read(buf)
		if n > 0 {
			data := append([]byte(nil), buf[:n]...)
			s.mu.Lock()
			if len(h.prelude) < preludeLimit {
				h.prelude = append(h.prelude, data[:min(len(data), preludeLimit-len(h.prelude))]...)
			}
			h.replay = appendReplay(h.replay, data)
			f := &Frame{Type: TypeOutput, Data: data}
			if h.owner != nil {
				s.queue(h.owner, f)
			}
			for cl := range h.observers {
				s.queue(cl, f)
			}
			s.mu.Unlock()
		}
		if err != nil {
			return // EIO once the UI and everything on its terminal ended
		}
	}
}

// sendReplay queues what a client that attaches (or resyncs) gets: the
// prelude when the replay no longer starts with it, then the replay's
// tail. Called with s.mu held.
func (s *Server) sendReplay(cl *client, h *hosted) {
	tail := replayTail(h.replay)
	if len(tail) < len(h.replay) || len(h.replay) >= ReplayLimit || h.trimmed {
		h.trimmed = true
		s.queue(cl, &Frame{Type: TypeOutput, Data: h.prelude[:len(h.prelude):len(h.prelude)]})
	}
	for b := tail; len(b) > 0; {
		n := min(len(b), chunk)
		s.queue(cl, &Frame{Type: TypeOutput, Data: b[:n:n]})
		b = b[n:]
	}
}

// appendReplay appends data to the replay. It is trimmed to its last
// ReplayLimit bytes only when it has grown to twice that, so a session
// that prints a lot copies each byte a bounded number of times
// (trimming at every append copied 4 MiB per chunk).
func appendReplay(replay, data []byte) []byte {
	replay = append(replay, data...)
	if len(replay) >= 2*ReplayLimit {
		replay = append(make([]byte, 0, 2*ReplayLimit), replayTail(replay)...)
	}
	return replay
}

// replayTail is what a client that attaches gets: the replay's last
// ReplayLimit bytes, from a line start when one is near, so the replay
// starts cleanly.
func replayTail(replay []byte) []byte {
	over := len(replay) - ReplayLimit
	if over <= 0 {
		return replay
	}
	cut := over
	if replay[over-1] == '\n' {
		return replay[cut:]
	}
	if i := indexByteFrom(replay, '\n', over); i >= 0 && i-over < 64<<10 {
		cut = i + 1
	}
	return replay[cut:]
}

func indexByteFrom(b []byte, c byte, from int) int {
	for i := from; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// readLink follows what the session's UI says on its link.
func (s *Server) readLink(h *hosted) {
	readLinkMsgs(h.link, func(m linkMsg) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch m.Event {
		case linkBusy:
			h.busy = true
		case linkIdle:
			h.busy = false
			s.active = time.Now()
		case linkDetach:
			if h.owner != nil {
				cl := h.owner
				s.queue(cl, &Frame{Type: TypeDetached, Reason: "quit"})
				s.detachLocked(cl)
			}
		}
	})
}

// wait reaps the session's UI and lets its clients go.
func (s *Server) wait(h *hosted) {
	err := h.cmd.Wait()
	// Anything left in its group (a tool that ignored the terminal's
	// hangup) goes with it.
	_ = syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
	h.release()
	h.link.Close()
	// Its last words are still in the terminal: read them before the
	// clients hear it ended (a process that escaped the group and holds
	// the terminal open must not keep the session here forever).
	select {
	case <-h.outDone:
	case <-time.After(2 * time.Second):
	}
	why := "the session's synaps exited"
	if err != nil {
		why += " (" + err.Error() + ")"
	}
	s.logf("session %s (pid %d): %s", h.handle, h.cmd.Process.Pid, why)
	s.mu.Lock()
	delete(s.sessions, h.handle)
	close(h.ended)
	var all []*client
	if h.owner != nil {
		all = append(all, h.owner)
	}
	for cl := range h.observers {
		all = append(all, cl)
	}
	for _, cl := range all {
		s.queue(cl, &Frame{Type: TypeEnded, Session: h.id, Reason: why})
		s.detachLocked(cl)
	}
	s.active = time.Now()
	s.mu.Unlock()
	h.master.Close()
}
