package sandbox

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// retireAll retires every kept policy, as if they had all gone stale: a
// test that counts confined threads starts without those of the tests
// before it.
func retireAll() {
	preparedCache.Lock()
	m := preparedCache.m
	preparedCache.m = nil
	preparedCache.Unlock()
	for _, pr := range m {
		pr.retire()
	}
}

// A kept policy forks its commands from one confined thread: it serves
// concurrent starts (each command confined, synaps not) and stays while a
// command of it runs; once retired, it outlives the commands it started
// (their parent-death signal fires when it ends) and then ends. A start
// after the retirement confines a thread of its own.
func TestSpawnerServesItsPolicyThenEndsAfterItsCommands(t *testing.T) {
	f := newCacheFixture(t)
	f.settle(t)
	retireAll()
	before := threadStatus(t, "/proc/self/status")

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := run(t, f.p, f.root, "echo x > "+f.home+"/x"+string(rune('a'+i)))
			if err == nil {
				t.Errorf("command %d wrote outside its writable directory:\n%s", i, out)
			}
			if err := os.WriteFile(filepath.Join(f.b, "mine"), []byte("x"), 0o600); err != nil {
				t.Errorf("synaps itself could not write: %v", err)
			}
		}()
	}
	wg.Wait()

	cmd := exec.Command("/bin/sh", "-c", "sleep 0.3; echo done")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	release, err := Start(cmd, f.p, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := prepare(f.p)
	if err != nil || pr == nil || !pr.cached {
		t.Fatalf("the policy is not kept: %v, %v", pr, err)
	}
	if n := len(taintedThreads(t, before)); n == 0 {
		t.Fatal("no confined thread is kept while a command of the policy runs")
	}
	pr.retire()
	err = cmd.Wait()
	release()
	if err != nil || strings.TrimSpace(out.String()) != "done" {
		t.Fatalf("a command outliving its policy's retirement: err %v, output %q; want done", err, out.String())
	}
	waitUnconfined(t, before)

	if out, err := run(t, f.p, f.root, "cat "+f.home+"/.ssh/id_rsa"); err == nil || strings.Contains(out, "SECRET") {
		t.Fatalf("after the retirement, the key was read:\n%s", out)
	}
	if out, err := run(t, f.p, f.root, "echo again"); err != nil || !strings.Contains(out, "again") {
		t.Fatalf("after the retirement: err %v\n%s", err, out)
	}
}

// A spawner with nothing running ends after spawnerIdle by itself; the
// next start confines a new thread from the kept policy.
func TestSpawnerEndsWhenIdle(t *testing.T) {
	f := newCacheFixture(t)
	f.settle(t)
	retireAll()
	before := threadStatus(t, "/proc/self/status")
	p := f.p
	p.Name = "idle test" // a policy of its own, not retired by the test before
	if out, err := run(t, p, f.root, "echo one"); err != nil || !strings.Contains(out, "one") {
		t.Fatalf("err %v\n%s", err, out)
	}
	first, _ := prepare(p)
	waitUnconfined(t, before)
	if again, _ := prepare(p); again != first {
		t.Fatal("the policy was prepared again: its spawner's end must not drop it")
	}
	if out, err := run(t, p, f.root, "cat "+f.home+"/.ssh/id_rsa; echo two"); !strings.Contains(out, "two") || strings.Contains(out, "SECRET") {
		t.Fatalf("after the idle end: err %v\n%s", err, out)
	}
}

// waitUnconfined waits until no thread of this process carries a
// confinement the main thread did not have (no time limit but the
// test's own).
func waitUnconfined(t *testing.T, before map[string]string) {
	t.Helper()
	for {
		tainted := taintedThreads(t, before)
		if len(tainted) == 0 {
			return
		}
		if dl, ok := t.Deadline(); ok && time.Until(dl) < 5*time.Second {
			t.Fatalf("threads still confined: %v", tainted)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A spawner whose command runs long looks for its end less and less
// often (a session's extension would otherwise wake its thread every
// spawnerIdle), and hears the end from release: once told, it ends
// without another look.
func TestSpawnerHearsTheEnd(t *testing.T) {
	f := newCacheFixture(t)
	f.settle(t)
	retireAll()
	before := threadStatus(t, "/proc/self/status")
	p := f.p
	p.Name = "long command test"
	// 3 s: the end falls between two looks (at 2.25 and 4.65 s), so
	// only release can tell it before the next.
	cmd := exec.Command("/bin/sh", "-c", "sleep 3")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	looks := spawnerLooks.Load()
	began := time.Now()
	release, err := Start(cmd, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	ran := time.Since(began)
	during := spawnerLooks.Load() - looks
	// Looks at 150, 450, 1050, 2250, 4650 ms …: doubling waits from
	// spawnerIdle; at every spawnerIdle there would be ran/150ms.
	bound := int64(math.Log2(float64(ran)/float64(spawnerIdle)+1)) + 1
	if during > bound {
		t.Errorf("%d looks while a command ran %v, want at most %d", during, ran, bound)
	}
	release()
	waitUnconfined(t, before)
	if after := spawnerLooks.Load() - looks - during; after != 0 {
		t.Errorf("the spawner looked %d times for an end release told it", after)
	}
}
