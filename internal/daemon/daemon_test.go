//go:build !windows

package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// attachAs attaches a second client to base's only session.
func attachAs(t *testing.T, base, mode string) (*Attachment, error) {
	t.Helper()
	cl, err := Dial(base)
	if err != nil {
		t.Fatal(err)
	}
	a, err := cl.Attach("", mode, 80, 24)
	if err == nil {
		t.Cleanup(func() { a.Close() })
	}
	return a, err
}

// One client owns the input, the others observe: who gets which mode,
// whose keys reach the session, and what every client sees.
func TestAttachModes(t *testing.T) {
	cases := []struct {
		mode string
		// want: the second client's mode, or the refusal.
		want, refused string
		// firstTold is the mode the first client is told it has now.
		firstTold string
	}{
		{mode: "", want: ModeObserve},
		{mode: ModeObserve, want: ModeObserve},
		{mode: ModeOwner, refused: "another client owns this session's input; attach with --takeover to take it, or --observe to watch"},
		{mode: ModeTakeover, want: ModeOwner, firstTold: ModeObserve},
	}
	for _, tc := range cases {
		t.Run("mode "+tc.mode, func(t *testing.T) {
			base, _ := startServer(t, Options{IdleExit: -1})
			first := newSession(t, base)
			if first.Mode != ModeOwner {
				t.Fatalf("the client that started the session is %s, want owner", first.Mode)
			}
			second, err := attachAs(t, base, tc.mode)
			if tc.refused != "" {
				if err == nil || err.Error() != tc.refused {
					t.Fatalf("attach %q: got %v, want the refusal %q", tc.mode, err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if second.Mode != tc.want {
				t.Errorf("attach %q: mode %s, want %s", tc.mode, second.Mode, tc.want)
			}
			// The replay: the second client sees what was printed before.
			waitOutput(t, second, "fake ui ready")

			owner, other := first, second
			if tc.firstTold != "" {
				if f := waitFrame(t, first, TypeMode); f.Mode != tc.firstTold {
					t.Errorf("the first client was told %s, want %s", f.Mode, tc.firstTold)
				}
				owner, other = second, first
			}
			// The observer's keys go nowhere; the owner's reach the
			// session, and both see its answer live.
			if err := other.Input([]byte("from the observer\r")); err != nil {
				t.Fatal(err)
			}
			if err := owner.Input([]byte("from the owner\r")); err != nil {
				t.Fatal(err)
			}
			for _, a := range []*Attachment{owner, other} {
				if out := waitOutput(t, a, "echo: from the owner"); strings.Contains(out, "from the observer") {
					t.Errorf("an observer's keys reached the session: %q", out)
				}
			}
		})
	}
}

// A client that attaches later gets everything printed so far, then the
// output live; the user's quit in the session detaches its owner and the
// session goes on, ready for the next owner.
func TestReplayQuitAndReattach(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	first := newSession(t, base)
	first.Input([]byte("one\r"))
	waitOutput(t, first, "echo: one")
	first.Input([]byte("quit\r"))
	if f := waitFrame(t, first, TypeDetached); f.Reason != "quit" {
		t.Errorf("detached: reason %q, want quit", f.Reason)
	}

	cl, _ := Dial(base)
	list, err := cl.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Owner || list[0].Watch != 0 {
		t.Fatalf("after the owner detached: %+v, want one session with no client", list)
	}

	again, err := attachAs(t, base, "")
	if err != nil {
		t.Fatal(err)
	}
	if again.Mode != ModeOwner {
		t.Errorf("reattached as %s, want owner (nobody owned the input)", again.Mode)
	}
	waitOutput(t, again, "echo: one") // the replay
	again.Input([]byte("two\r"))
	waitOutput(t, again, "echo: two") // live
}

// synaps send reaches the session's UI over its link, by session id (a
// unique prefix will do) once the UI has a session file, by handle
// before; the daemon lists the session with its id.
func TestSendAndSessionIDs(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	a := newSession(t, base)
	a.Input([]byte("lock\r"))
	out := waitOutput(t, a, "\r\n")
	for !strings.Contains(out, "locked ") {
		out += waitOutput(t, a, "\n")
	}
	id := strings.Fields(out[strings.Index(out, "locked ")+len("locked "):])[0]

	cl, _ := Dial(base)
	list, err := cl.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	got := []SessionInfo{}
	for _, s := range list {
		got = append(got, SessionInfo{ID: s.ID, Handle: s.Handle, Owner: s.Owner})
	}
	if diff := cmp.Diff([]SessionInfo{{ID: id, Handle: "s1", Owner: true}}, got); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}

	for _, name := range []string{id, id[:len(id)-2], "s1"} {
		cl, _ := Dial(base)
		sent, err := cl.Send(name, "hello "+name)
		if err != nil {
			t.Fatalf("send %s: %v", name, err)
		}
		if sent != id {
			t.Errorf("send %s: reached %q, want %q", name, sent, id)
		}
		waitOutput(t, a, "sent: hello "+name)
	}
	cl, _ = Dial(base)
	if _, err := cl.Send("nosuch", "hi"); err == nil || !strings.Contains(err.Error(), `no session "nosuch" runs in the daemon`) {
		t.Errorf("send to no session: %v", err)
	}
}

// A client that stops reading never slows the session: its output is
// skipped while it is behind, and once it reads again it gets the screen
// as it is now (cleared, then the replay), not everything it missed.
func TestClientThatDoesNotReadNeverStallsTheSession(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	owner := newSession(t, base)

	// A raw observer: hello, attach, then it does not read for a while.
	nc, err := net.Dial("unix", PathsOf(base).Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c := newConn(nc)
	c.write(&Frame{Type: TypeHello, Version: Protocol})
	c.read()
	c.write(&Frame{Type: TypeAttach, Mode: ModeObserve})

	owner.Input([]byte("flood\r"))
	waitOutput(t, owner, "flood done")
	owner.Input([]byte("still here\r"))
	waitOutput(t, owner, "echo: still here")

	// It reads again: it has not been dropped, and it gets a resync
	// rather than the 20 MB.
	nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	var got []byte
	read := 0
	for !bytes.Contains(got, []byte("echo: still here")) {
		f, err := c.read()
		if err != nil {
			t.Fatalf("the observer that lagged: %v after %d bytes", err, read)
		}
		read += len(f.Data)
		if i := bytes.LastIndex(f.Data, []byte(clearScreen)); i >= 0 {
			got = append(got[:0], f.Data[i:]...)
		} else {
			got = append(got, f.Data...)
		}
	}
	if read >= 20_000*1000 {
		t.Errorf("the observer that lagged read %d bytes: it got everything, not a resync", read)
	}
	if !bytes.HasPrefix(got, []byte(clearScreen)) {
		t.Errorf("no resync (clear screen, then the replay) before the live output")
	}
}

// A session whose process ends tells its clients why and leaves the
// daemon's list.
func TestSessionEnds(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	a := newSession(t, base)
	a.Input([]byte("exit\r"))
	f := waitFrame(t, a, TypeEnded)
	if !strings.Contains(f.Reason, "its synaps exited") {
		t.Errorf("ended: reason %q", f.Reason)
	}
	cl, _ := Dial(base)
	if list, _ := cl.Sessions(); len(list) != 0 {
		t.Errorf("sessions after the end: %+v", list)
	}
}

// Idle means no client connected and no turn running: only then does
// the clock run.
func TestIdleRule(t *testing.T) {
	base, srv := startServer(t, Options{IdleExit: time.Hour})
	a := newSession(t, base)
	long := time.Now().Add(-2 * time.Hour)
	idle := func() bool {
		srv.mu.Lock()
		srv.active = long
		srv.mu.Unlock()
		return srv.idleFor()
	}
	if idle() {
		t.Error("idle with a client attached")
	}
	a.Input([]byte("busy\r"))
	// The link and the terminal are two channels: wait for the link.
	waitBusy(t, base, true)
	a.Close()
	waitNoClient(t, srv)
	if idle() {
		t.Error("idle while a turn runs")
	}
	// A client again, to say the turn ended.
	b, err := attachAs(t, base, "")
	if err != nil {
		t.Fatal(err)
	}
	b.Input([]byte("idle\r"))
	waitBusy(t, base, false)
	b.Close()
	waitNoClient(t, srv)
	if !idle() {
		t.Error("not idle with no client and no turn running")
	}
}

// waitBusy waits until the daemon's one session is (not) busy.
func waitBusy(t *testing.T, base string, busy bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		cl, err := Dial(base)
		if err != nil {
			t.Fatal(err)
		}
		if list, _ := cl.Sessions(); len(list) == 1 && list[0].Busy == busy {
			return
		}
	}
	t.Fatalf("the session never became busy=%v", busy)
}

func waitNoClient(t *testing.T, srv *Server) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		srv.mu.Lock()
		n := srv.conns
		srv.mu.Unlock()
		if n == 0 {
			return
		}
	}
	t.Fatal("a closed client is still connected")
}

// A daemon with nothing to do exits by itself and takes its socket.
func TestIdleExit(t *testing.T) {
	base := shortTemp(t)
	srv, err := Listen(base, Options{IdleExit: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv.Serve(t.Context()) // returns by itself
	if _, err := os.Stat(PathsOf(base).Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is left: %v", err)
	}
}

// A socket left by a dead daemon is replaced; a live daemon's lock
// refuses a second one, naming its pid; the files are private.
func TestListenStaleSocketAndLock(t *testing.T) {
	base := shortTemp(t)
	p := PathsOf(base)
	if err := p.ensureDir(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", p.Socket)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // as a kill -9 leaves it: a socket file nobody listens on
	if _, err := Dial(base); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("dial a stale socket: %v, want ErrNotRunning", err)
	}

	base2, _ := startServer(t, Options{IdleExit: -1})
	_ = base2
	srv, err := Listen(base, Options{IdleExit: -1})
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	go srv.Serve(t.Context())
	defer func() { srv.Stop(); <-srv.Done() }()
	cl, err := Dial(base)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cl.Status()
	if err != nil || st.PID != os.Getpid() {
		t.Fatalf("status: %+v, %v", st, err)
	}
	if _, err := Listen(base, Options{}); err == nil || !strings.Contains(err.Error(), "a synaps daemon already runs for "+base+" (pid ") {
		t.Errorf("a second daemon: %v", err)
	}
	for path, want := range map[string]os.FileMode{p.Dir: 0o700, p.Socket: 0o600, p.Lock: 0o600} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %o", filepath.Base(path), fi.Mode().Perm(), err, want)
		}
	}
	long := filepath.Join(base, strings.Repeat("d", 100))
	if _, err := Listen(long, Options{}); err == nil || !strings.Contains(err.Error(), "more than a Unix socket allows") {
		t.Errorf("a socket path too long: %v", err)
	}
	if _, _, err := Ensure(long, os.Args[0]); err == nil || !strings.Contains(err.Error(), "set SYNAPS_BASE_DIR to a shorter directory") {
		t.Errorf("Ensure with a socket path too long: %v", err)
	}
}

// Two clients starting the daemon at once reach one daemon.
func TestEnsureStartsOneDaemon(t *testing.T) {
	base := shortTemp(t)
	t.Setenv(serveEnv, base) // the test binary re-run as `daemon serve` serves base
	var wg sync.WaitGroup
	pids := make([]int, 2)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl, _, err := Ensure(base, os.Args[0])
			if err != nil {
				t.Error(err)
				return
			}
			st, err := cl.Status()
			if err != nil {
				t.Error(err)
				return
			}
			pids[i] = st.PID
		}()
	}
	wg.Wait()
	if pids[0] == 0 || pids[0] != pids[1] || pids[0] == os.Getpid() {
		t.Fatalf("daemons reached: %v, want one, not this process", pids)
	}
	cl, started, err := Ensure(base, os.Args[0])
	if err != nil || started {
		t.Fatalf("Ensure with a daemon running: started %v, %v", started, err)
	}
	if err := cl.Stop(""); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pids[0])
}

// Sessions of one daemon each run where, and with the environment, their
// client asked for; a client that dies frees the input for the next one.
func TestSessionsOwnCwdEnvAndInput(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	var as []*Attachment
	var dirs []string
	for i := range 2 {
		dir, _ := filepath.EvalSymlinks(t.TempDir())
		cl, err := Dial(base)
		if err != nil {
			t.Fatal(err)
		}
		a, err := cl.NewSession(os.Args[0], nil, dir, append(os.Environ(), fakeUIEnv+"=1", fmt.Sprintf("DAEMON_TEST_MARK=m%d", i)), 80, 24)
		if err != nil {
			t.Fatal(err)
		}
		waitOutput(t, a, "fake ui ready")
		as, dirs = append(as, a), append(dirs, dir)
	}
	for i, a := range as {
		a.Input([]byte("where\r"))
		waitOutput(t, a, fmt.Sprintf("cwd %s mark m%d", dirs[i], i))
	}

	// The first session's owner dies (its socket closes with no detach):
	// the session goes on, and the next client owns its input.
	as[0].Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		cl, _ := Dial(base)
		list, _ := cl.Sessions()
		if len(list) == 2 && list[0].Handle == "s1" && !list[0].Owner {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dead owner still owns the input: %+v", list)
		}
	}
	cl, _ := Dial(base)
	a, err := cl.Attach("s1", "", 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Mode != ModeOwner {
		t.Errorf("after the owner died the next client is %s, want owner", a.Mode)
	}
	a.Input([]byte("still mine\r"))
	waitOutput(t, a, "echo: still mine")
	as[1].Close()
}

// Relay, the client's side: keys to the session, output to the terminal,
// and on the user's quit it returns "detached", leaving the terminal as
// it found it (TerminalReset); an observer leaves on q.
func TestRelay(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	owner := newSession(t, base)
	obs, err := attachAs(t, base, ModeObserve)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		reason string
		err    error
		out    string
	}
	relay := func(a *Attachment) (io.WriteCloser, *syncBuffer, chan result) {
		inR, inW := io.Pipe()
		done := make(chan result, 1)
		out := &syncBuffer{}
		go func() {
			reason, err := a.Relay(inR, out)
			done <- result{reason, err, out.String()}
		}()
		return inW, out, done
	}
	keys, ownerOut, ownerDone := relay(owner)
	obsKeys, _, obsDone := relay(obs)

	io.WriteString(keys, "hello\r")
	// The quit comes over the link, the echo over the terminal: the echo
	// first.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(ownerOut.String(), "echo: hello"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no echo: %q", ownerOut.String())
		}
	}
	io.WriteString(keys, "quit\r")
	r := <-ownerDone
	if r.err != nil || r.reason != "detached" {
		t.Fatalf("the owner's relay: %q, %v", r.reason, r.err)
	}
	if !strings.Contains(r.out, "echo: hello") || !strings.HasSuffix(r.out, TerminalReset) {
		t.Errorf("the owner's terminal got %q; want the echo, then TerminalReset", lastBytes(r.out))
	}

	io.WriteString(obsKeys, "q")
	r = <-obsDone
	if r.err != nil || r.reason != "detached" || !strings.Contains(r.out, "echo: hello") || !strings.HasSuffix(r.out, TerminalReset) {
		t.Errorf("the observer's relay: %q, %v, %q", r.reason, r.err, lastBytes(r.out))
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// A session that printed more than the replay keeps: a client attaching
// gets the session's first output (where its UI set the terminal's modes)
// and then the newest ReplayLimit bytes, not everything.
func TestReplayAfterALotOfOutput(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	owner := newSession(t, base)
	owner.Input([]byte("flood\r"))
	waitOutput(t, owner, "flood done")
	late, err := attachAs(t, base, ModeObserve)
	if err != nil {
		t.Fatal(err)
	}
	out := waitOutput(t, late, "flood done")
	if !strings.HasPrefix(out, "fake ui ready") {
		t.Errorf("the replay does not start with the session's first output: %q", out[:min(len(out), 40)])
	}
	if len(out) > ReplayLimit+preludeLimit+1000 {
		t.Errorf("the replay is %d bytes, more than the last %d and the prelude", len(out), ReplayLimit)
	}
}

// A $SYNAPS_DAEMON_LINK that is not the daemon's link (set by hand, or
// inherited by a synaps a tool runs) is refused, naming the variable.
func TestOpenLinkRefusesWhatIsNotALink(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, v := range []string{"x", "1", fmt.Sprint(f.Fd()), "9999"} {
		t.Setenv(LinkEnv, v)
		l, err := OpenLink(os.Getenv)
		if l != nil || err == nil || !strings.Contains(err.Error(), "is not the daemon's link") {
			t.Errorf("%s=%s: %v, %v", LinkEnv, v, l, err)
		}
		if os.Getenv(LinkEnv) != "" {
			t.Errorf("%s is left in the environment", LinkEnv)
		}
	}
	if l, err := OpenLink(os.Getenv); l != nil || err != nil {
		t.Errorf("no %s: %v, %v; want nil, nil", LinkEnv, l, err)
	}
}

// An owner whose input another client takes over is told on its
// terminal, and from then on its keys leave instead of typing.
func TestRelayTakenOver(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	owner := newSession(t, base)
	keys, inW := io.Pipe()
	out := &syncBuffer{}
	done := make(chan string, 1)
	go func() {
		reason, _ := owner.Relay(keys, out)
		done <- reason
	}()
	if _, err := attachAs(t, base, ModeTakeover); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "another client took over the input: this terminal observes now"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the owner was not told: %q", lastBytes(out.String()))
		}
	}
	io.WriteString(inW, "q")
	if reason := <-done; reason != "detached" {
		t.Errorf("after q: %q, want detached", reason)
	}
}

// A daemon log past maxLog is kept as daemon.log.1 when the next daemon
// starts, which writes a new one.
func TestEnsureRotatesTheLog(t *testing.T) {
	base := shortTemp(t)
	t.Setenv(serveEnv, base)
	p := PathsOf(base)
	if err := p.ensureDir(); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("old daemon line\n"), maxLog/16+1)
	if err := os.WriteFile(p.Log, big, 0o600); err != nil {
		t.Fatal(err)
	}
	cl, started, err := Ensure(base, os.Args[0])
	if err != nil || !started {
		t.Fatalf("Ensure: started %v, %v", started, err)
	}
	st, err := cl.Status()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		c2, err := Dial(base) // a client is good for one request
		if err == nil {
			err = c2.Stop("")
		}
		if err != nil {
			t.Errorf("stop: %v", err)
		}
		waitGone(t, st.PID)
	}()
	if old, err := os.ReadFile(p.Log + ".1"); err != nil || len(old) != len(big) {
		t.Errorf("daemon.log.1: %d bytes, %v; want the old log's %d", len(old), err, len(big))
	}
	if fi, err := os.Stat(p.Log); err != nil || fi.Size() >= int64(len(big)) {
		t.Errorf("daemon.log was not started afresh: %v %v", fi, err)
	}
}
