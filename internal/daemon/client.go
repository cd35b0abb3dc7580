package daemon

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/procgroup"
)

// Client is a connection to the daemon, past the hello.
type Client struct {
	nc net.Conn
	c  *conn
	// pid is the daemon's (its answer to hello).
	pid int
}

// ErrNotRunning is Dial's error when no daemon listens.
var ErrNotRunning = errors.New("no synaps daemon is running")

// Dial connects to base's daemon.
func Dial(base string) (*Client, error) {
	p := PathsOf(base)
	if err := p.checkSocket(); err != nil {
		return nil, err
	}
	nc, err := net.Dial("unix", p.Socket)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, ErrNotRunning
		}
		return nil, fmt.Errorf("cannot reach the daemon at %s: %w", p.Socket, err)
	}
	cl := &Client{nc: nc, c: newConn(nc)}
	if err := cl.c.write(&Frame{Type: TypeHello, Version: Protocol}); err != nil {
		nc.Close()
		return nil, err
	}
	f, err := cl.c.read()
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("the daemon at %s did not answer: %w", p.Socket, err)
	}
	if f.Type != TypeOK {
		nc.Close()
		return nil, fmt.Errorf("the daemon refused: %s", f.Error)
	}
	cl.pid = f.PID
	return cl, nil
}

// Close ends the connection (a client attached to a session detaches).
func (c *Client) Close() error { return c.nc.Close() }

// Ensure connects to base's daemon, starting one first when none runs
// (exe daemon serve, in its own session, its stderr in run/daemon.log).
// started says it did. Two clients starting one at once is fine: one
// daemon takes the lock, the other exits, both clients reach the winner.
func Ensure(base, exe string, serveArgs ...string) (cl *Client, started bool, err error) {
	if errUnsupported != nil {
		return nil, false, errUnsupported
	}
	cl, err = Dial(base)
	if !errors.Is(err, ErrNotRunning) {
		return cl, false, err
	}
	p := PathsOf(base)
	if err := p.ensureDir(); err != nil {
		return nil, false, err
	}
	// Each daemon appends to the log; a log past maxLog becomes
	// daemon.log.1 (one generation kept) before the next one starts, so
	// it does not grow with every daemon the user ever ran.
	if fi, err := os.Stat(p.Log); err == nil && fi.Size() > maxLog {
		_ = os.Rename(p.Log, p.Log+".1")
	}
	logf, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("cannot open the daemon's log %s: %w", p.Log, err)
	}
	defer logf.Close()
	cmd := exec.Command(exe, append([]string{"daemon", "serve"}, serveArgs...)...)
	cmd.Dir = "/"
	cmd.Env = withoutLink(os.Environ())
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own session: the terminal's hangup and Ctrl-C are not its.
	cmd.SysProcAttr = procgroup.Detached()
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("cannot start the daemon (%s daemon serve): %w", exe, err)
	}
	// It is meant to outlive this process: not an orphan to reap.
	lifeline.Spare(cmd.Process.Pid)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for delay := time.Millisecond; ; delay = min(delay*2, 50*time.Millisecond) {
		cl, err = Dial(base)
		if err == nil {
			if cl.pid != cmd.Process.Pid {
				// Another client's daemon won the lock. Ours failed, or
				// would take the lock over once the winner stops: a
				// daemon nobody asked for. It goes.
				_ = cmd.Process.Signal(syscall.SIGTERM)
				return cl, false, nil
			}
			return cl, true, nil
		}
		select {
		case werr := <-exited:
			// Another client's daemon may have won the lock.
			if cl, err := Dial(base); err == nil {
				return cl, false, nil
			}
			return nil, false, fmt.Errorf("the daemon exited at start (%v): %s", werr, tail(p.Log))
		case <-time.After(delay):
		}
		if time.Now().After(deadline) {
			return nil, false, fmt.Errorf("the daemon did not listen on %s within 10s: %s", p.Socket, tail(p.Log))
		}
	}
}

// tail is the end of the daemon's log, for an error.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "its log " + path + " is empty"
	}
	return s
}

// request sends f and reads one answer; an error frame is an error.
func (c *Client) request(f *Frame) (*Frame, error) {
	defer c.Close()
	if err := c.c.write(f); err != nil {
		return nil, err
	}
	ans, err := c.c.read()
	if err != nil {
		return nil, fmt.Errorf("the daemon did not answer: %w", err)
	}
	if ans.Type == TypeError {
		return nil, errors.New(ans.Error)
	}
	return ans, nil
}

// Status asks the daemon for its state; the connection is then closed.
func (c *Client) Status() (*Status, error) {
	f, err := c.request(&Frame{Type: TypeStatus})
	if err != nil {
		return nil, err
	}
	return f.Status, nil
}

// Sessions lists the daemon's sessions; the connection is then closed.
func (c *Client) Sessions() ([]SessionInfo, error) {
	f, err := c.request(&Frame{Type: TypeSessions})
	if err != nil {
		return nil, err
	}
	return f.Sessions, nil
}

// Stop ends one session (name) or, with "", the daemon.
func (c *Client) Stop(name string) error {
	_, err := c.request(&Frame{Type: TypeStop, Session: name})
	return err
}

// Send gives text to a session as if typed at its input; it returns the
// session's id.
func (c *Client) Send(name, text string) (string, error) {
	f, err := c.request(&Frame{Type: TypeSend, Session: name, Text: text})
	if err != nil {
		return "", err
	}
	return f.Session, nil
}

// Attachment is a client attached to a session.
type Attachment struct {
	c *Client
	// Session is the session's id ("" while its UI opens it); Handle the
	// daemon's name for it; Mode owner or observe.
	Session, Handle, Mode string
}

// NewSession starts a session (a synaps UI: exe with args, in cwd, with
// env) and attaches to it as its owner.
func (c *Client) NewSession(exe string, args []string, cwd string, env []string, cols, rows int) (*Attachment, error) {
	return c.attach(&Frame{Type: TypeNew, Exe: exe, Args: args, Cwd: cwd, Env: env, Cols: cols, Rows: rows})
}

// Attach attaches to a running session: mode "" owns the input when
// nobody does and observes otherwise.
func (c *Client) Attach(name, mode string, cols, rows int) (*Attachment, error) {
	return c.attach(&Frame{Type: TypeAttach, Session: name, Mode: mode, Cols: cols, Rows: rows})
}

func (c *Client) attach(f *Frame) (*Attachment, error) {
	if err := c.c.write(f); err != nil {
		c.Close()
		return nil, err
	}
	ans, err := c.c.read()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("the daemon did not answer: %w", err)
	}
	switch ans.Type {
	case TypeAttached:
		return &Attachment{c: c, Session: ans.Session, Handle: ans.Text, Mode: ans.Mode}, nil
	case TypeError:
		c.Close()
		return nil, errors.New(ans.Error)
	case TypeEnded:
		c.Close()
		return nil, errors.New(ans.Reason)
	}
	c.Close()
	return nil, fmt.Errorf("the daemon answered %q to an attach", ans.Type)
}

// Next is the next frame from the daemon: output, a mode change, detached
// or ended.
func (a *Attachment) Next() (*Frame, error) { return a.c.c.read() }

// Input sends keys (the owner's; an observer's are ignored).
func (a *Attachment) Input(b []byte) error {
	return a.c.c.write(&Frame{Type: TypeInput, Data: b})
}

// Resize tells the daemon the owner's terminal size.
func (a *Attachment) Resize(cols, rows int) error {
	return a.c.c.write(&Frame{Type: TypeResize, Cols: cols, Rows: rows})
}

// Detach leaves the session; it goes on.
func (a *Attachment) Detach() {
	_ = a.c.c.write(&Frame{Type: TypeDetach})
	a.c.Close()
}

// Close drops the connection (the daemon detaches this client).
func (a *Attachment) Close() error { return a.c.Close() }

// TerminalReset undoes what a session's UI set on the terminal and a
// client leaves behind when it detaches mid-session: the cursor hidden,
// bracketed paste, modifyOtherKeys and the kitty keyboard flags (with
// those two on, a shell reads ctrl+c as an escape sequence), mouse and
// focus reports, synchronized output.
const TerminalReset = "\x1b[?2026l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l" +
	"\x1b[?2004l\x1b[>4;0m\x1b[<u\x1b[0m\x1b[?25h\r\n"

// Relay copies an attachment to a terminal until the daemon lets it go
// (the user quit: detached), the session ends, or in closes. Keys from in
// go to the session while this client owns the input; an observer's
// ctrl+c, ctrl+d or q leaves instead. It returns why it ended, after
// writing TerminalReset to out.
func (a *Attachment) Relay(in io.Reader, out io.Writer) (reason string, err error) {
	defer io.WriteString(out, TerminalReset)
	frames := make(chan *Frame)
	errc := make(chan error, 1)
	go func() {
		for {
			f, err := a.Next()
			if err != nil {
				errc <- err
				return
			}
			frames <- f
		}
	}()
	keys := make(chan []byte)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				keys <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()
	mode := a.Mode
	for {
		select {
		case f := <-frames:
			switch f.Type {
			case TypeOutput:
				if _, err := out.Write(f.Data); err != nil {
					a.Detach()
					return "", err
				}
			case TypeMode:
				mode = f.Mode
				if mode == ModeObserve {
					io.WriteString(out, "\r\n· "+f.Reason+": this terminal observes now (ctrl+c, ctrl+d or q leaves)\r\n")
				}
			case TypeDetached:
				a.Close()
				return "detached", nil
			case TypeEnded:
				a.Close()
				if f.Session != "" {
					// A session started by this client had no id yet
					// when it attached.
					a.Session = f.Session
				}
				return "ended: " + f.Reason, nil
			}
		case err := <-errc:
			a.Close()
			return "", fmt.Errorf("lost the daemon: %w", err)
		case k, ok := <-keys:
			if !ok {
				a.Detach()
				return "detached", nil
			}
			if mode != ModeOwner {
				if strings.ContainsAny(string(k), "\x03\x04q") {
					a.Detach()
					return "detached", nil
				}
				continue
			}
			if err := a.Input(k); err != nil {
				return "", err
			}
		}
	}
}

// maxLog is the size past which the daemon's log is rotated at the next
// daemon's start.
const maxLog = 1 << 20
