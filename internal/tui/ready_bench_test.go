package tui

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkTUIReady measures the whole program's time to ready in a
// terminal (issue 37: "TUI ready to type in under 50 ms whatever is
// installed"): the synaps binary, built once, is started in a
// pseudo-terminal of its own with a scripted model (no API key), and the
// clock runs from the exec to the first output in which the input box is
// drawn (ns/op, the mean; "med-ms", the median of the run's starts), to
// the first in which the status line no longer says the session is
// opening ("open-ms", median: Enter sends at once), and to the first in
// which no extension is starting ("started-ms", median). "cpu-ms" is the
// CPU time the program's threads used up to the input box, "runq-ms" the
// time they waited for a CPU (/proc/PID/task/*/schedstat), both means: on
// a shared machine the wall time swings with the load, these show how.
//
// The installed extensions are copies of the tutorial's hello-ext
// (examples/extensions/hello-ext, Python): "tools" as written (a tool and
// a before_tool_call guard: the initialize cache may keep them), "cold"
// with the cache emptied before every start, "warm" with it filled by
// an earlier start; "session" subscribes on_session_start instead, which
// always starts with the session.
//
// A pseudo-terminal rather than tmux: tmux's screen can only be polled
// (capture-pane, a process each time), too coarse for milliseconds; the
// program's output is read here as it is written. Nothing answers the
// terminal's queries (background colour, keyboard modes), as a terminal
// that does not know them would not.
//
//	go test ./internal/tui -run '^$' -bench TUIReady -benchtime 10x -count 5
//
// SYNAPS_TUI_BENCH_BIN=path measures that binary instead of building
// one (to compare two builds, or to profile one with perf).
func BenchmarkTUIReady(b *testing.B) {
	if testing.Short() {
		b.Skip("builds the binary and starts it in a pseudo-terminal")
	}
	root := repoRoot(b)
	tmp := b.TempDir()
	bin := os.Getenv("SYNAPS_TUI_BENCH_BIN") // a binary to measure instead (before and after)
	if bin == "" {
		bin = goBuild(b, root, filepath.Join(tmp, "synaps"), "./cmd/synaps")
	}
	pyBin, pyErr := realPython(tmp)
	for _, c := range []struct {
		kind string // "", "tools", "session"
		n    int
		warm bool
	}{
		{"", 0, false},
		{"tools", 1, false}, {"tools", 4, false}, {"tools", 16, false},
		{"tools", 1, true}, {"tools", 4, true}, {"tools", 16, true},
		{"session", 1, true}, {"session", 4, true}, {"session", 16, true},
	} {
		name := "extensions=0"
		if c.n > 0 {
			cache := "cold"
			if c.warm {
				cache = "warm"
			}
			name = fmt.Sprintf("%s=%d/cache=%s", c.kind, c.n, cache)
		}
		b.Run(name, func(b *testing.B) {
			if c.n > 0 && pyErr != nil {
				b.Skip("python3 is not installed: the extensions are the Python hello-ext")
			}
			r := newReadyRig(b, root, tmp, bin, pyBin)
			for i := range c.n {
				r.installHello(b, root, fmt.Sprintf("hello%02d", i), c.kind == "session")
			}
			if c.warm {
				p := r.start(b) // fills the initialize cache
				p.waitFor(b, "the input box", inputDrawn)
				p.waitFor(b, "the extensions started", extensionsStarted)
				p.stop(b)
			}
			var input, open, started []time.Duration
			var cpu, wait time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				if !c.warm {
					os.RemoveAll(filepath.Join(r.base, "extensions", "init-cache"))
				}
				b.StartTimer()
				p := r.start(b)
				p.waitFor(b, "the input box", inputDrawn)
				b.StopTimer()
				input = append(input, p.last.Sub(p.began))
				cpu += p.lastCPU
				wait += p.lastWait
				p.waitFor(b, "the session open", sessionOpen)
				open = append(open, p.last.Sub(p.began))
				p.waitFor(b, "the extensions started", extensionsStarted)
				started = append(started, p.last.Sub(p.began))
				p.stop(b)
				b.StartTimer()
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(median(input)), "med-ms")
			b.ReportMetric(ms(median(open)), "open-ms")
			b.ReportMetric(ms(median(started)), "started-ms")
			b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms")
			b.ReportMetric(ms(wait)/float64(b.N), "runq-ms")
		})
	}
}

// The pseudo-terminal's size.
const readyCols, readyRows = 120, 30

// median is the middle of ds (the upper one of an even count).
func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// The milestones, as the screen shows them: the input box is drawn; the
// session is open (the status line no longer says it opens: Enter sends
// at once); no extension is still starting.
func inputDrawn(s string) bool        { return strings.Contains(s, "Ask anything") }
func sessionOpen(s string) bool       { return !strings.Contains(s, "you can type meanwhile") }
func extensionsStarted(s string) bool { return !strings.Contains(s, "starting") }

// readyRig is a base directory, a work directory with the scripted model,
// and the binary.
type readyRig struct {
	bin, base, work, home, script string
	path                          string // $PATH
}

func newReadyRig(b *testing.B, root, tmp, bin, pyBin string) *readyRig {
	dir, err := os.MkdirTemp(tmp, "rig")
	if err != nil {
		b.Fatal(err)
	}
	r := &readyRig{bin: bin, base: filepath.Join(dir, "base"), work: filepath.Join(dir, "work"), home: filepath.Join(dir, "home")}
	r.script = filepath.Join(r.work, "script.jsonl")
	r.path = os.Getenv("PATH")
	if pyBin != "" {
		r.path = pyBin + string(os.PathListSeparator) + r.path
	}
	writeFile(b, r.script, `{"text":"hello"}`+"\n")
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		b.Fatal(err)
	}
	return r
}

// realPython makes a directory in tmp whose python3 is the interpreter
// itself: a version manager's shim on the PATH (pyenv's runs bash and
// pyenv, about 1.5 s here) would be measured instead of synaps.
func realPython(tmp string) (string, error) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(tmp, "python")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, os.Symlink(strings.TrimSpace(string(out)), filepath.Join(dir, "python3"))
}

// installHello copies the tutorial's hello-ext as plugin id; session
// makes it hook on_session_start instead of before_tool_call.
func (r *readyRig) installHello(b *testing.B, root, id string, session bool) {
	src := filepath.Join(root, "examples", "extensions", "hello-ext")
	dst := filepath.Join(r.base, "plugins", id)
	manifest, err := os.ReadFile(filepath.Join(src, ".synaps-plugin", "plugin.json"))
	if err != nil {
		b.Fatal(err)
	}
	main, err := os.ReadFile(filepath.Join(src, "main.py"))
	if err != nil {
		b.Fatal(err)
	}
	m, py := string(manifest), string(main)
	m = strings.Replace(m, `"name": "hello-ext"`, `"name": "`+id+`"`, 1)
	py = strings.Replace(py, `NAME = "hello-ext"`, `NAME = "`+id+`"`, 1)
	if session {
		m = strings.Replace(m, `"hooks.before_tool_call"`, `"hooks.on_session_start"`, 1)
		py = strings.Replace(py, `"hooks": [{"name": "before_tool_call"}]`, `"hooks": [{"name": "on_session_start"}]`, 1)
	}
	if m == string(manifest) || py == string(main) || (session && !strings.Contains(py, "on_session_start")) {
		b.Fatalf("hello-ext changed: cannot make plugin %s from it", id)
	}
	writeFile(b, filepath.Join(dst, ".synaps-plugin", "plugin.json"), m)
	writeFile(b, filepath.Join(dst, "main.py"), py)
}

// ptyRun is one program in a pseudo-terminal; a goroutine reads what it
// writes.
type ptyRun struct {
	cmd               *exec.Cmd
	master            *os.File
	began             time.Time
	last              time.Time     // when the output that satisfied waitFor came
	lastCPU, lastWait time.Duration // the program's CPU and run-queue wait then

	mu     sync.Mutex
	out    bytes.Buffer  // what the program wrote
	screen *vtScreen     // what that shows
	stamp  time.Time     // when out last grew
	cpu    time.Duration // the program's threads' CPU time when out last grew
	wait   time.Duration // and their time waiting for a CPU
	grew   chan struct{}
	closed bool
	done   chan struct{}
}

func (r *readyRig) start(b *testing.B) *ptyRun { return r.startEnv(b, nil) }

func (r *readyRig) startEnv(b *testing.B, env []string) *ptyRun {
	master, slave, err := openTestPTY(readyCols, readyRows)
	if err != nil {
		b.Skip(err)
	}
	cmd := exec.Command(r.bin, "--model", "script:"+filepath.Base(r.script)) // short: the status line shows it
	cmd.Dir = r.work
	cmd.Env = []string{"HOME=" + r.home, "SYNAPS_BASE_DIR=" + r.base, "TERM=xterm-256color", "PATH=" + r.path}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	p := &ptyRun{cmd: cmd, master: master, screen: newVTScreen(readyCols, readyRows), grew: make(chan struct{}, 1), done: make(chan struct{})}
	p.began = time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	slave.Close()
	go p.read()
	return p
}

func (p *ptyRun) read() {
	defer close(p.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			now := time.Now()
			cpu, wait := schedStat(p.cmd.Process.Pid)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.screen.Write(buf[:n])
			p.stamp, p.cpu, p.wait = now, cpu, wait
			p.mu.Unlock()
			select {
			case p.grew <- struct{}{}:
			default:
			}
		}
		if err != nil {
			p.mu.Lock()
			p.closed = true
			p.mu.Unlock()
			select {
			case p.grew <- struct{}{}:
			default:
			}
			return
		}
	}
}

// waitFor waits until the screen's text satisfies ok, and keeps in p.last when the output that did came.
func (p *ptyRun) waitFor(b *testing.B, what string, ok func(string) bool) {
	deadline := time.After(e2eWait)
	for {
		p.mu.Lock()
		text, stamp, cpu, wait, closed := p.screen.String(), p.stamp, p.cpu, p.wait, p.closed
		p.mu.Unlock()
		if ok(text) {
			p.last, p.lastCPU, p.lastWait = stamp, cpu, wait
			return
		}
		if closed {
			b.Fatalf("the program ended before %s; screen:\n%s", what, text)
		}
		select {
		case <-p.grew:
		case <-deadline:
			b.Fatalf("no %s after %v; screen:\n%s\nraw: %q", what, e2eWait, text, p.output())
		}
	}
}

func (p *ptyRun) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// stop quits as a user does (ctrl+c twice on the empty prompt) and
// waits for the program, its extensions ended, to exit.
func (p *ptyRun) stop(b *testing.B) {
	p.master.Write([]byte{3})
	time.Sleep(20 * time.Millisecond)
	p.master.Write([]byte{3})
	ended := make(chan error, 1)
	go func() { ended <- p.cmd.Wait() }()
	select {
	case <-ended:
	case <-time.After(e2eWait):
		p.cmd.Process.Kill()
		<-ended
		b.Fatalf("the program did not quit on ctrl+c twice; output:\n%q", p.output())
	}
	p.master.Close()
	<-p.done
}

// schedStat sums the CPU time and the run-queue wait of pid's threads
// (/proc/PID/task/*/schedstat): what the program computed, and how long
// it waited for a CPU on a loaded machine.
func schedStat(pid int) (cpu, wait time.Duration) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		var run, queued int64
		if _, err := fmt.Sscan(string(b), &run, &queued); err == nil {
			cpu += time.Duration(run)
			wait += time.Duration(queued)
		}
	}
	return cpu, wait
}

// openTestPTY opens a pseudo-terminal pair of cols x rows.
func openTestPTY(cols, rows int) (master, slave *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("no pseudo-terminal (/dev/ptmx): %w", err)
	}
	ioctl := func(f *os.File, req uintptr, arg unsafe.Pointer) error {
		rc, err := f.SyscallConn()
		if err != nil {
			return err
		}
		var errno syscall.Errno
		if err := rc.Control(func(fd uintptr) {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
		}); err != nil {
			return err
		}
		if errno != 0 {
			return errno
		}
		return nil
	}
	var unlock int32
	var n uint32
	if err := ioctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		m.Close()
		return nil, nil, err
	}
	if err := ioctl(m, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		m.Close()
		return nil, nil, err
	}
	ws := struct{ rows, cols, x, y uint16 }{uint16(rows), uint16(cols), 0, 0}
	if err := ioctl(m, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		m.Close()
		return nil, nil, err
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, s, nil
}
