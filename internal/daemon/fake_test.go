//go:build !windows

// The daemon refuses to run on Windows (sys_windows.go): its tests are
// Unix only.

package daemon

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/session"
)

// The daemon's tests run real processes: the daemon in this process (or,
// for the faults, this test binary re-run as the daemon) and, as each
// session's UI, this test binary re-run as a fake UI that speaks the link
// as the terminal UI does (fakeUI). Waits are for output to appear, with
// a generous backstop, never for a time to pass.

const (
	fakeUIEnv = "DAEMON_TEST_FAKE_UI" // run fakeUI
	serveEnv  = "DAEMON_TEST_SERVE"   // run a daemon on this base dir
)

func TestMain(m *testing.M) {
	if os.Getenv(fakeUIEnv) != "" {
		os.Exit(fakeUI())
	}
	if base := os.Getenv(serveEnv); base != "" {
		os.Exit(serve(base))
	}
	os.Exit(m.Run())
}

// serve is the daemon process of the fault tests: a lifeline as
// cmd/synaps has, then Listen and Serve.
func serve(base string) int {
	end, _ := lifeline.Start()
	defer end()
	// A minute idle and it goes: a test that failed half-way leaves no
	// daemon behind for long.
	srv, err := Listen(base, Options{IdleExit: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv.Serve(context.Background())
	return 0
}

// fakeUI is a session's UI: it reads lines from its terminal and answers
// each; the link's inputs are printed as "sent: TEXT".
//
//	busy, idle   tell the daemon (Link.Busy)
//	quit         ask the daemon to detach the owner (Link.Detach)
//	where        "cwd DIR mark $DAEMON_TEST_MARK"
//	exit         end the process
//	lock         create a session file (its lock) in $SYNAPS_BASE_DIR:
//	             "locked ID"
//	flood        print 20 MB, then "flood done"
//	spawn        start two `sleep` children as synaps starts its own:
//	             a tool in the UI's process group, an extension in a
//	             group of its own announced to the UI's lifeline; print
//	             "children PID PID"
//	anything     "echo: LINE"
func fakeUI() int {
	end, _ := lifeline.Start()
	defer end()
	link, err := OpenLink(os.Getenv)
	if err != nil || link == nil {
		fmt.Println("no link:", err)
		return 1
	}
	fmt.Print("fake ui ready\r\n")
	go link.Inputs(func(text string) { fmt.Printf("sent: %s\r\n", text) })
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch line {
		case "busy":
			link.Busy(true)
			fmt.Print("working\r\n")
		case "idle":
			link.Busy(false)
			fmt.Print("resting\r\n")
		case "quit":
			link.Detach()
		case "lock":
			// Open a session file as synaps does: the daemon learns its
			// id from the session's lock.
			sess, err := session.Create(os.Getenv("SYNAPS_BASE_DIR"), "m", "/")
			if err != nil {
				fmt.Printf("lock: %v\r\n", err)
				continue
			}
			defer sess.Close()
			fmt.Printf("locked %s\r\n", sess.ID)
		case "flood":
			line := strings.Repeat("x", 999)
			for range 20000 {
				fmt.Print(line + "\r\n")
			}
			fmt.Print("flood done\r\n")
		case "where":
			wd, _ := os.Getwd()
			fmt.Printf("cwd %s mark %s\r\n", wd, os.Getenv("DAEMON_TEST_MARK"))
		case "exit":
			fmt.Print("bye\r\n")
			return 0
		case "spawn":
			tool := exec.Command("sleep", "300")
			ext := exec.Command("sleep", "301")
			ext.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := tool.Start(); err != nil {
				fmt.Printf("spawn: %v\r\n", err)
				continue
			}
			if err := ext.Start(); err != nil {
				fmt.Printf("spawn: %v\r\n", err)
				continue
			}
			lifeline.Guard(ext.Process.Pid)
			fmt.Printf("children %d %d\r\n", tool.Process.Pid, ext.Process.Pid)
		default:
			fmt.Printf("echo: %s\r\n", line)
		}
	}
	return 0
}

// newSession asks the daemon of base for a fake UI session, attached as
// its owner.
func newSession(t testing.TB, base string) *Attachment {
	t.Helper()
	cl, err := Dial(base)
	if err != nil {
		t.Fatal(err)
	}
	a, err := cl.NewSession(os.Args[0], nil, t.TempDir(), append(os.Environ(), fakeUIEnv+"=1", "SYNAPS_BASE_DIR="+base), 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	waitOutput(t, a, "fake ui ready")
	return a
}

// waitOutput reads a's frames until its output holds want; it returns
// the output read. Other frames fail the test.
func waitOutput(t testing.TB, a *Attachment, want string) string {
	t.Helper()
	a.c.nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	defer a.c.nc.SetReadDeadline(time.Time{})
	var out strings.Builder
	for seen := 0; ; {
		// Search only what is new (and the tail want may straddle): a
		// flood of output stays linear.
		from := max(0, seen-len(want))
		if strings.Contains(out.String()[from:], want) {
			return out.String()
		}
		seen = out.Len()
		f, err := a.Next()
		if err != nil {
			t.Fatalf("waiting for %q: %v; output so far: %q", want, err, lastBytes(out.String()))
		}
		if f.Type != TypeOutput {
			t.Fatalf("waiting for %q: got a %s frame (%s); output so far: %q", want, f.Type, f.Reason, lastBytes(out.String()))
		}
		out.Write(f.Data)
	}
}

// waitFrame reads a's frames until one of type typ comes.
func waitFrame(t testing.TB, a *Attachment, typ string) *Frame {
	t.Helper()
	a.c.nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	defer a.c.nc.SetReadDeadline(time.Time{})
	for {
		f, err := a.Next()
		if err != nil {
			t.Fatalf("waiting for a %s frame: %v", typ, err)
		}
		if f.Type == typ {
			return f
		}
	}
}

// startServer runs a daemon on a new base dir in this process; it is
// stopped when the test ends.
func startServer(t testing.TB, o Options) (string, *Server) {
	t.Helper()
	base := shortTemp(t)
	srv, err := Listen(base, o)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	t.Cleanup(func() { srv.Stop(); <-srv.Done() })
	return base, srv
}

// shortTemp is a temporary directory with a path short enough for a
// Unix socket under it.
func shortTemp(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func lastBytes(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
