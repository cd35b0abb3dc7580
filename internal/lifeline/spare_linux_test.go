package lifeline

import (
	"os/exec"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A spared child (the session daemon a client starts) is not among the
// orphans Stop kills; the others are.
func TestSparedChildIsNotReaped(t *testing.T) {
	kid := exec.Command("sleep", "60")
	if err := kid.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { kid.Process.Kill(); kid.Wait() }()
	has := func(pids []int) bool {
		for _, p := range pids {
			if p == kid.Process.Pid {
				return true
			}
		}
		return false
	}
	if !has(children(nil)) {
		t.Fatalf("children() lacks the child %d", kid.Process.Pid)
	}
	if has(children(map[int]bool{kid.Process.Pid: true})) {
		t.Errorf("children() lists the spared child %d", kid.Process.Pid)
	}
}

// The children files and the full scan of /proc agree.
func TestTaskChildrenMatchScan(t *testing.T) {
	var kids []*exec.Cmd
	for range 3 {
		k := exec.Command("sleep", "60")
		if err := k.Start(); err != nil {
			t.Fatal(err)
		}
		kids = append(kids, k)
	}
	defer func() {
		for _, k := range kids {
			k.Process.Kill()
			k.Wait()
		}
	}()
	fast, ok := taskChildren(nil)
	if !ok {
		t.Skip("this kernel has no /proc/self/task/*/children")
	}
	slow := scanChildren(nil)
	sort.Ints(fast)
	sort.Ints(slow)
	if d := cmp.Diff(slow, fast); d != "" {
		t.Errorf("children (-scan +task files):\n%s", d)
	}
	for _, k := range kids {
		if !slices.Contains(fast, k.Process.Pid) {
			t.Errorf("child %d missing", k.Process.Pid)
		}
	}
}

// The sentinel starts with the first group announced, not with Start: a
// command that starts nothing pays for no /bin/sh.
func TestSentinelStartsWithFirstGuard(t *testing.T) {
	defer func() {
		state.mu.Lock()
		state.armed, state.failed, state.subreaper, state.sentinel, state.w = false, false, false, nil, nil
		state.mu.Unlock()
	}()
	stop, _ := Start()
	state.mu.Lock()
	started := state.sentinel != nil
	state.mu.Unlock()
	if started {
		t.Fatal("Start started the sentinel")
	}
	k := exec.Command("sleep", "60")
	k.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	release := Guard(k.Process.Pid)
	state.mu.Lock()
	started = state.sentinel != nil
	state.mu.Unlock()
	if !started {
		t.Fatal("Guard did not start the sentinel")
	}
	// Not released: at Stop the sentinel kills the group. (Orphan
	// reaping is left out: it would reap this test's own child.)
	_ = release
	state.mu.Lock()
	state.subreaper = false
	state.mu.Unlock()
	stop()
	if err := k.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the announced group after Stop: %v, want killed", err)
	}
}
