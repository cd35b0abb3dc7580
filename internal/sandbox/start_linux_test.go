package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fast path's thread outlives the command: with a parent-death
// signal set, a thread that ended at Start would have the kernel kill the
// command before it prints.
func TestFastPathKeepsTheForkingThreadUntilTheCommandEnds(t *testing.T) {
	f := newFixture(t)
	out, err := runVia(t, viaFast, BashPolicy(f.env, DefaultConfig()), f.project, "sleep 0.3; echo done")
	if err != nil || strings.TrimSpace(out) != "done" {
		t.Fatalf("err %v, output %q; want done", err, out)
	}
}

// The confinement stays on the threads that forked the commands, which
// end with them: synaps itself writes where its commands may not, and,
// once they have ended, no thread of it carries a seccomp filter or
// no_new_privs it did not have.
func TestFastPathLeavesSynapsUnconfined(t *testing.T) {
	f := newFixture(t)
	p := BashPolicy(f.env, DefaultConfig())
	retireAll() // the threads kept for the policies of the tests before
	before := threadStatus(t, "/proc/self/status")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := runVia(t, viaFast, p, f.project, "echo x > "+f.outside+"/x")
			if err == nil {
				t.Errorf("command %d wrote outside the project:\n%s", i, out)
			}
			if err := os.WriteFile(filepath.Join(f.outside, "mine"), []byte("x"), 0o600); err != nil {
				t.Errorf("synaps itself could not write: %v", err)
			}
		}()
	}
	wg.Wait()
	// A locked thread ends shortly after its goroutine; wait for it
	// (no time limit but the test's own).
	for {
		tainted := taintedThreads(t, before)
		if len(tainted) == 0 {
			break
		}
		if dl, ok := t.Deadline(); ok && time.Until(dl) < 5*time.Second {
			t.Fatalf("threads still confined after their commands ended: %v", tainted)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// taintedThreads are the threads of this process whose seccomp filters
// or no_new_privs differ from before (the main thread's at the start).
func taintedThreads(t *testing.T, before map[string]string) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/self/task/*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		st := threadStatus(t, filepath.Join(d, "status"))
		if st == nil {
			continue // ended meanwhile
		}
		for _, k := range []string{"NoNewPrivs", "Seccomp", "Seccomp_filters"} {
			if st[k] != before[k] {
				out = append(out, filepath.Base(d)+" "+k+"="+st[k])
			}
		}
	}
	return out
}

func threadStatus(t *testing.T, path string) map[string]string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			m[k] = strings.TrimSpace(v)
		}
	}
	return m
}
