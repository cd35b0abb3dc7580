package daemon

// A session's lifecycle: its UI started in a pseudo-terminal of its own,
// its output and link read, its end waited for and cleaned up.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/procgroup"
)

// preludeLimit bounds a session's prelude.
const preludeLimit = 4 << 10

// chunk is the most output one frame carries.
const chunk = 32 << 10

// stopGrace is how long a session's UI has to end after SIGTERM (it ends
// its extensions and syncs its session) before it is killed.
const stopGrace = 8 * time.Second

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

// end stops a session's UI: SIGTERM (it saves and ends its extensions),
// SIGKILL to its group after stopGrace.
func (s *Server) end(h *hosted, why string) {
	s.logf("ending session %s (pid %d): %s", h.handle, h.cmd.Process.Pid, why)
	_ = procgroup.Signal(h.cmd.Process, syscall.SIGTERM)
	select {
	case <-h.ended:
	case <-time.After(stopGrace):
		_ = procgroup.Kill(h.cmd.Process)
		<-h.ended
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
		procgroup.Kill(cmd.Process)
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
	_ = procgroup.Kill(h.cmd.Process)
	h.release()
	h.link.Close()
	// Its last words are still in the terminal: read them before the
	// clients hear it ended (a process that escaped the group and holds
	// the terminal open must not keep the session here forever).
	select {
	case <-h.outDone:
	case <-time.After(2 * time.Second):
	}
	why := "its synaps exited"
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
