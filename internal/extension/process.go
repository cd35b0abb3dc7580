package extension

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/procgroup"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// process is one running OS process of an extension: its pipes, its
// JSON-RPC connection and the goroutines that reap it and drain its stderr.
// It knows nothing of restarts; the supervisor in extension.go does.
type process struct {
	cmd  *exec.Cmd
	conn *jsonrpc.Conn
	// stdin is the parent's write end of the child's stdin.
	stdin *os.File
	// stdout and stderr are the parent's read ends, closed by stop so that
	// a grandchild holding the pipes open cannot keep goroutines alive.
	stdout, stderr *os.File
	// errReader reads stderr; release finishes it (reads what is buffered)
	// before stderr is closed, so the last lines reach the log.
	errReader *pipeReader
	// exited is closed once cmd.Wait has returned; waitErr is its result.
	exited  chan struct{}
	waitErr error
	// drained is closed when the stderr reader has finished.
	drained chan struct{}
	// lastStderr is the last stderrKept lines of stderr, oldest first.
	// Written only by the stderr reader; read only after drained.
	lastStderr []string
	// unguard withdraws the group from the lifeline sentinel once release
	// has killed it.
	unguard func()
	// lossOnce guards loss: the first goroutine to notice that the
	// process is gone reaps it and writes the report, the others wait for
	// it (see Extension.lost).
	lossOnce sync.Once
	loss     crashReport
}

// stderrKept is how many of its last stderr lines a process keeps for its
// crash report (the log keeps them all).
const stderrKept = 5

// spawnSpec is everything needed to start a process.
type spawnSpec struct {
	argv    []string
	dir     string
	env     []string
	stderr  func(line string) // called for every stderr line, in order
	connOpt jsonrpc.Options
	// policy, when set, confines the process (internal/sandbox); note
	// receives a line for each refusal it makes out (a host the proxy
	// refused, a file its stderr says it could not open).
	policy *sandbox.Policy
	note   func(line string)
}

// spawn starts the process in its own process group with three fresh
// pipes. Passing *os.File ends to exec.Cmd means cmd.Wait reaps the child
// without waiting on copy goroutines, so a grandchild that inherits the
// pipes cannot stall the reaper.
func spawn(s spawnSpec) (*process, error) {
	path, err := resolveCommand(s.argv[0], s.dir)
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd := &exec.Cmd{
		Path:        path,
		Args:        s.argv,
		Dir:         s.dir,
		Env:         s.env,
		Stdin:       inR,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: procgroup.Group(),
	}
	release := func() {}
	var startErr error
	if s.policy != nil {
		note := s.note
		if note == nil {
			note = func(string) {}
		}
		// Start, not Wrap: a policy that needs no network namespace is
		// applied on a confined thread of synaps that forks the process
		// (the bash tool's fast path), instead of re-running synaps as
		// a helper that confines itself and execs it — a Go runtime's
		// start per extension, ≈ 40 ms of CPU, paid by every start.
		release, startErr = sandbox.Start(cmd, *s.policy, note)
		// A file the process was refused, as its stderr says, is a line
		// of the log naming the refusal.
		pol, dir, orig := *s.policy, s.dir, s.stderr
		s.stderr = func(line string) {
			if orig != nil {
				orig(line)
			}
			for _, b := range pol.Blocked(dir, line) {
				note(b)
			}
		}
	} else {
		startErr = sandbox.StartPlain(cmd)
	}
	if startErr != nil {
		release()
		closeAll(inR, inW, outR, outW, errR, errW)
		var refused *sandbox.RefusedError
		if errors.As(startErr, &refused) {
			return nil, startErr
		}
		return nil, fmt.Errorf("cannot start %s: %w", strings.Join(s.argv, " "), startErr)
	}
	// The child holds its own copies now.
	closeAll(inR, outW, errW)
	// Its group dies with synaps, whatever kills synaps.
	unguard := lifeline.Guard(cmd.Process.Pid)
	p := &process{
		cmd:       cmd,
		stdin:     inW,
		stdout:    outR,
		stderr:    errR,
		errReader: &pipeReader{f: errR},
		exited:    make(chan struct{}),
		drained:   make(chan struct{}),
		unguard:   unguard,
	}
	go func() {
		p.waitErr = cmd.Wait()
		release()
		close(p.exited)
	}()
	go func() {
		defer close(p.drained)
		readLines(p.errReader, func(line string) {
			if len(p.lastStderr) == stderrKept {
				copy(p.lastStderr, p.lastStderr[1:])
				p.lastStderr = p.lastStderr[:stderrKept-1]
			}
			p.lastStderr = append(p.lastStderr, line)
			if s.stderr != nil {
				s.stderr(line)
			}
		})
	}()
	p.conn = jsonrpc.NewConn(outR, inW, s.connOpt)
	return p, nil
}

// resolveCommand finds the executable: a bare name through PATH, a path
// with a slash relative to the plugin root.
//
// A command path that does not exist is a *missingCommand, which is
// os.ErrNotExist to errors.Is (the load hint names the setup script).
func resolveCommand(name, dir string) (string, error) {
	if name == "" {
		return "", errors.New("the command is empty")
	}
	if strings.ContainsRune(name, '/') {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		if _, err := os.Stat(name); err != nil {
			return "", &missingCommand{fmt.Sprintf("command %s does not exist (relative paths are resolved from the plugin root %s)", name, dir)}
		}
		return name, nil
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("command %q was not found on PATH; install it or give a path relative to the plugin root", name)
	}
	return path, nil
}

// stderrTail returns the last lines the process wrote to stderr. It waits
// for the stderr reader to finish, so call it once the process has been
// killed or stopped.
func (p *process) stderrTail() []string {
	<-p.drained
	return append([]string(nil), p.lastStderr...)
}

// pid returns the child's pid.
func (p *process) pid() int { return p.cmd.Process.Pid }

// alive reports whether the process has not exited yet.
func (p *process) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stopTimeouts are the waits of the stop sequence.
type stopTimeouts struct {
	reply time.Duration // for the shutdown reply
	exit  time.Duration // after closing stdin, and again after SIGTERM
}

// defaultStop waits for the shutdown reply as long as MethodDeadlines says,
// the figure the docs and contract.json quote.
var defaultStop = stopTimeouts{reply: contract.MethodDeadlines[contract.MethodShutdown], exit: time.Second}

// stop ends the process politely and then less so, and always reaps it:
//  1. ask it to shut down and wait for the reply (extensions written from
//     the guide answer {} and leave their loop);
//  2. close stdin, so a reader loop sees EOF, and wait for it to exit;
//  3. SIGTERM the whole process group and wait;
//  4. SIGKILL the group and wait for the reaper.
//
// Finally the group is killed once more (grandchildren left behind) and the
// parent's pipe ends are closed, which ends the connection and stderr
// goroutines even if a grandchild inherited the pipes.
func (p *process) stop(t stopTimeouts, sayShutdown bool) {
	p.stopContext(context.Background(), t, sayShutdown)
}

// stopContext is stop, cut short when ctx ends: the polite steps are
// skipped and the group is killed at once. It is how a user's second
// Ctrl-C (or the end-of-session budget) ends the wait for an extension
// that does not stop.
func (p *process) stopContext(ctx context.Context, t stopTimeouts, sayShutdown bool) {
	if sayShutdown && p.alive() && ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, t.reply)
		_, _ = p.conn.Call(cctx, contract.MethodShutdown, nil)
		cancel()
	}
	p.stdin.Close()
	if !p.waitExitContext(ctx, t.exit) {
		p.signal(syscall.SIGTERM)
		if !p.waitExitContext(ctx, t.exit) {
			p.signal(syscall.SIGKILL)
			<-p.exited
		}
	}
	p.release()
}

// kill ends the process at once (after a crash or a protocol error) and
// releases everything.
func (p *process) kill() {
	p.signal(syscall.SIGKILL)
	<-p.exited
	p.release()
}

// release kills what is left of the group, closes the parent's pipe ends
// and waits for the connection and stderr goroutines. It is called once the
// process has exited, so everything it wrote to stderr is in the pipe:
// stderr is read to the end of that before it is closed.
func (p *process) release() {
	p.signal(syscall.SIGKILL)
	p.unguard()
	p.stdin.Close()
	p.conn.Close()
	p.stdout.Close()
	p.finishStderr()
	<-p.conn.Done()
}

// finishStderr lets the stderr reader take what the pipe holds, waits for
// it, and closes the pipe. Closing first would drop the unread lines — the
// crash message among them — whenever the reader had not been scheduled
// since the process wrote them.
func (p *process) finishStderr() {
	if !p.errReader.finish() {
		p.stderr.Close() // not interruptible: closing is the only way to end it
	}
	<-p.drained
	p.stderr.Close()
}

func (p *process) waitExit(d time.Duration) bool {
	return p.waitExitContext(context.Background(), d)
}

// waitExitContext waits up to d for the process to exit; it gives up at
// once when ctx ends.
func (p *process) waitExitContext(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.exited:
		return true
	case <-timer.C:
		return false
	case <-ctx.Done():
		select {
		case <-p.exited:
			return true
		default:
			return false
		}
	}
}

// signal sends sig to the child's process group.
func (p *process) signal(sig syscall.Signal) {
	_ = procgroup.Signal(p.cmd.Process, sig)
}

// exitDescription says how the process ended, for error messages.
func (p *process) exitDescription() string {
	select {
	case <-p.exited:
	default:
		return "still running"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by " + signalName(ws.Signal())
		}
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	}
	if p.waitErr != nil {
		return p.waitErr.Error()
	}
	return "exited with status 0"
}

// maxStderrLine caps one captured stderr line; the rest is dropped with a
// note so a runaway writer cannot grow memory.
const maxStderrLine = 4 << 10

// readLines calls fn for each line of r, cutting lines at maxStderrLine.
func readLines(r io.Reader, fn func(string)) {
	buf := make([]byte, 32<<10)
	var line []byte
	cut := false
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			part := chunk
			if i >= 0 {
				part = chunk[:i]
			}
			if room := maxStderrLine - len(line); room > 0 {
				if len(part) > room {
					part, cut = part[:room], true
				}
				line = append(line, part...)
			} else if len(part) > 0 {
				cut = true
			}
			if i < 0 {
				break
			}
			emit(fn, line, cut)
			line, cut = line[:0], false
			chunk = chunk[i+1:]
		}
		if err != nil {
			if len(line) > 0 {
				emit(fn, line, cut)
			}
			return
		}
	}
}

func emit(fn func(string), line []byte, cut bool) {
	s := strings.TrimSuffix(string(line), "\r")
	if cut {
		s += " …[line truncated]"
	}
	fn(s)
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// signalName spells the signals users meet in stop and crash reports.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	}
	return s.String()
}

// missingCommand is a command file that is not there.
type missingCommand struct{ msg string }

func (e *missingCommand) Error() string { return e.msg }
func (e *missingCommand) Unwrap() error { return os.ErrNotExist }
