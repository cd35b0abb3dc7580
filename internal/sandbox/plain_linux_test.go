package sandbox

import (
	"os/exec"
	"sync"
	"syscall"
	"testing"
)

// Unconfined children with a parent-death signal (MCP servers,
// extensions, plain bash) outlive spawner threads that end: each spawner
// below confines a thread of its own, which the runtime ends when it
// retires, and a child forked from a thread that ends is SIGKILLed. They
// were forked from whatever thread their goroutine ran on, which a later
// spawner could take; StartPlain marks the thread it forks from, and no
// spawner confines a marked thread.
func TestPlainChildrenOutliveSpawnerThreads(t *testing.T) {
	f := newCacheFixture(t)
	f.settle(t)
	retireAll()
	before := threadStatus(t, "/proc/self/status")

	const n = 12
	children := make([]*exec.Cmd, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("/bin/sleep", "60")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			if err := StartPlain(cmd); err != nil {
				t.Error(err)
				return
			}
			children[i] = cmd
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range children {
			if c != nil && c.Process != nil {
				c.Process.Kill()
				c.Wait()
			}
		}
	})
	for round := range 6 {
		var spawns sync.WaitGroup
		for i := range 4 {
			spawns.Add(1)
			go func() {
				defer spawns.Done()
				p := f.p
				p.Name = "plain test " + string(rune('a'+round)) + string(rune('a'+i))
				if _, err := run(t, p, f.root, "true"); err != nil {
					t.Errorf("a confined spawn failed: %v", err)
				}
			}()
		}
		spawns.Wait()
		retireAll()
		waitUnconfined(t, before)
	}
	for i, c := range children {
		if c == nil {
			continue
		}
		if err := c.Process.Signal(syscall.Signal(0)); err != nil {
			t.Errorf("child %d ended when a spawner thread did: %v", i, err)
			continue
		}
		var ws syscall.WaitStatus
		if pid, _ := syscall.Wait4(c.Process.Pid, &ws, syscall.WNOHANG, nil); pid != 0 {
			t.Errorf("child %d ended when a spawner thread did: %v", i, ws)
		}
	}
}
