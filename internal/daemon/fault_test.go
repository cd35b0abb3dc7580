//go:build !windows

package daemon

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid runs (a zombie has ended: it only waits to
// be reaped by whoever inherited it).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(s[i+1:], " Z")
}

func waitGone(t testing.TB, pids ...int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		left := 0
		for _, pid := range pids {
			if alive(pid) {
				left++
			}
		}
		if left == 0 {
			return
		}
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("pid %d outlived the daemon", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// kill -9 of the daemon: its session's UI, the tool command in the UI's
// group and the extension in a group of its own all end; the clients hear
// the daemon is gone; the next client starts a new daemon over the stale
// socket.
func TestDaemonKilledLeavesNoChild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and kills them")
	}
	base := shortTemp(t)
	t.Setenv(serveEnv, base)
	cl, started, err := Ensure(base, os.Args[0])
	if err != nil || !started {
		t.Fatalf("Ensure: started %v, %v", started, err)
	}
	st, err := cl.Status()
	if err != nil {
		t.Fatal(err)
	}
	a := newSession(t, base)
	a.Input([]byte("spawn\r"))
	out := waitOutput(t, a, "children ")
	for !strings.Contains(out[strings.Index(out, "children "):], "\n") {
		out += waitOutput(t, a, "\n")
	}
	f := strings.Fields(out[strings.Index(out, "children "):])
	tool, _ := strconv.Atoi(f[1])
	ext, _ := strconv.Atoi(f[2])
	cl, _ = Dial(base)
	list, err := cl.Sessions()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %+v, %v", list, err)
	}
	ui := list[0].PID
	for _, pid := range []int{ui, tool, ext} {
		if !alive(pid) {
			t.Fatalf("pid %d is not running before the kill", pid)
		}
	}

	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, st.PID, ui, tool, ext)
	a.c.nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		f, err := a.Next()
		if err != nil {
			break // the client hears the daemon is gone
		}
		if f.Type != TypeOutput {
			t.Fatalf("after the kill: a %s frame", f.Type)
		}
	}

	if _, err := Dial(base); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("dial after the kill: %v, want ErrNotRunning", err)
	}
	cl, started, err = Ensure(base, os.Args[0])
	if err != nil || !started {
		t.Fatalf("Ensure after the kill: started %v, %v", started, err)
	}
	st2, err := cl.Status()
	if err != nil || st2.PID == st.PID || st2.Sessions != 0 {
		t.Fatalf("the new daemon: %+v, %v", st2, err)
	}
	cl, _ = Dial(base)
	cl.Stop("")
	waitGone(t, st2.PID)
}
