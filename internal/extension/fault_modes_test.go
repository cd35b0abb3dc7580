package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// Host-level checks of the fault modes added for the fault-injection suite
// (internal/agent/fault_test.go runs each of them in an agent session).

// crash-at:N crashes on the Nth call counted across restarts: the call is
// retried on the new process (call N+1 by the counter) and answers.
func TestFaultCrashAtCountsAcrossRestarts(t *testing.T) {
	base := t.TempDir()
	dir := idempotentToolPlugin(t, base, "third", fakeSpec{Modes: map[string]string{"tool:t": "crash-at:3"}})
	h := startHost(t, base, nil)
	for i := 1; i <= 4; i++ {
		if res := callTool(t, h, "third_t", `{}`); res.IsError || res.Output != "ok" {
			t.Fatalf("call %d = %+v", i, res)
		}
		if st := statusOf(t, h, "third"); (i < 3) != (st.State == StateLoaded) || (i >= 3) != (st.Restarts == 1) {
			t.Fatalf("after call %d: status %+v", i, st)
		}
	}
	// Five requests reached the fake: four calls and the retry of the third.
	if b, _ := os.ReadFile(filepath.Join(dir, "count-tool_t")); strings.TrimSpace(string(b)) != "5" {
		t.Errorf("counter = %q", b)
	}
	if !strings.Contains(logOf(t, base, "third"), "fake: crash-at 3 on tool:t") {
		t.Errorf("log:\n%s", logOf(t, base, "third"))
	}
}

// crash-random:P with P = 1 crashes on every call (so the extension ends
// failed after MaxRestarts), with P = 0 never.
func TestFaultCrashRandomBounds(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "always", fakeSpec{Modes: map[string]string{"tool:t": "crash-random:1"}})
	toolPlugin(t, base, "never", fakeSpec{Modes: map[string]string{"tool:t": "crash-random:0"}})
	h := startHost(t, base, nil)
	// Four calls: the tool is not retried, so each call is one crash.
	for i := 0; i < MaxRestarts+1; i++ {
		if res := callTool(t, h, "never_t", `{}`); res.IsError {
			t.Fatalf("crash-random:0 call %d = %+v", i, res)
		}
		if res := callTool(t, h, "always_t", `{}`); !res.IsError {
			t.Fatalf("crash-random:1 call %d = %+v", i, res)
		}
	}
	waitFor(t, func() bool { return statusOf(t, h, "always").State == StateFailed })
	if st := statusOf(t, h, "always"); st.State != StateFailed || !strings.Contains(st.Error, "crashed 4 times in a row") {
		t.Errorf("always: %+v", st)
	}
	if st := statusOf(t, h, "never"); st.State != StateLoaded || st.Restarts != 0 {
		t.Errorf("never: %+v", st)
	}
}

// An answer dripped one byte at a time, and one that comes late but within
// the deadline, are answers like any other.
func TestFaultDripAndLateAnswersCount(t *testing.T) {
	base := t.TempDir()
	block := map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"slow but sure"}`)}
	for id, mode := range map[string]string{"drip": "drip", "late": "late:150"} {
		fakePlugin(t, base, id, map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}}},
			fakeSpec{Results: block, Modes: map[string]string{"hook:before_tool_call": mode}})
	}
	h := startHost(t, base, func(o *Options) { o.HookTimeout = 5 * time.Second })
	// drip is first in the chain and blocks; then late alone.
	if d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil); !d.Blocked || d.BlockedBy != "drip" {
		t.Fatalf("drip: %+v", d)
	}
	os.RemoveAll(filepath.Join(base, "plugins", "drip"))
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil); !d.Blocked || d.BlockedBy != "late" {
		t.Fatalf("late: %+v", d)
	}
}

// 1 MiB of stderr per call: every line is captured, the in-memory tail
// stays at its bound and the log file is rotated at 8 MiB, so a flooding
// extension costs neither unbounded memory nor unbounded disk.
func TestFaultStderrFloodIsBounded(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "flood", fakeSpec{Modes: map[string]string{"tool:t": "stderr-flood"}})
	h := startHost(t, base, nil)
	for i := 0; i < 10; i++ {
		if res := callTool(t, h, "flood_t", `{}`); res.IsError || res.Output != "ok" {
			t.Fatalf("call %d = %+v", i, res)
		}
	}
	if st := statusOf(t, h, "flood"); st.State != StateLoaded {
		t.Errorf("status = %+v", st)
	}
	lines, _ := h.Logs("flood", 0)
	if len(lines) != tailLines {
		t.Errorf("in-memory tail holds %d lines, want %d", len(lines), tailLines)
	}
	h.Shutdown()
	logs := filepath.Join(base, "extensions", "logs")
	cur, err1 := os.Stat(filepath.Join(logs, "flood.log"))
	old, err2 := os.Stat(filepath.Join(logs, "flood.log.1"))
	if err1 != nil || err2 != nil {
		t.Fatalf("log files: %v, %v", err1, err2)
	}
	if cur.Size() > maxLogFile || old.Size() > maxLogFile || cur.Size()+old.Size() < 2<<20 {
		t.Errorf("log sizes %d and %d (limit %d)", cur.Size(), old.Size(), maxLogFile)
	}
}

// An extension that sends requests without reading its stdin cannot grow
// synaps's memory: at most jsonrpc.DefaultMaxInFlight of its requests are
// served at once, then synaps stops reading from it, and when that lasts
// (stall; 10 s by default, shortened here) the extension is failed with
// the reason, not restarted into the same flood. Before the bound, every
// request held a goroutine waiting to write its reply.
func TestFaultRequestFloodIsBounded(t *testing.T) {
	const flood = 20000
	base := t.TempDir()
	toolPlugin(t, base, "flooder", fakeSpec{Modes: map[string]string{"tool:t": fmt.Sprintf("flood-requests:%d", flood)}})
	h := startHostEnv(t, base, func(o *Options) { o.Deadlines = map[string]time.Duration{contract.MethodToolCall: 20 * time.Second} },
		func(env *hostEnv) { env.stall = 300 * time.Millisecond })
	before := memInUse()
	baseG := runtime.NumGoroutine()
	// Sample the goroutine count while the flood is under way.
	stop, peak := make(chan struct{}), make(chan int)
	go func() {
		max := 0
		for {
			if n := runtime.NumGoroutine(); n > max {
				max = n
			}
			select {
			case <-stop:
				peak <- max
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	res := callTool(t, h, "flooder_t", `{}`)
	close(stop)
	maxG := <-peak
	after := memInUse()
	t.Logf("flood of %d requests: goroutines %d → peak %d; heap+stacks %.1f → %.1f MiB", flood, baseG, maxG, float64(before)/(1<<20), float64(after)/(1<<20))
	if maxG > baseG+jsonrpc.DefaultMaxInFlight+20 {
		t.Errorf("goroutines peaked at %d (from %d) during a flood of %d requests; want at most %d more", maxG, baseG, flood, jsonrpc.DefaultMaxInFlight+20)
	}
	if grow := int64(after) - int64(before); grow > 16<<20 {
		t.Errorf("heap+stacks grew by %.1f MiB during the flood", float64(grow)/(1<<20))
	}
	if !res.IsError || !strings.Contains(res.Output, "does not read the replies") || !strings.Contains(res.Output, "will not be restarted") {
		t.Errorf("tool result = %+v", res)
	}
	st := statusOf(t, h, "flooder")
	if st.State != StateFailed || st.Restarts != 0 || !strings.Contains(st.Error, "protocol error: jsonrpc: connection closed: the peer sends requests but does not read the replies") || !strings.Contains(st.Error, "must keep reading its stdin") {
		t.Errorf("status = %+v", st)
	}
	if log := logOf(t, base, "flooder"); !strings.Contains(log, "not reading from it until one is") {
		t.Errorf("log lacks the back-pressure note:\n%s", log)
	}
}

// memInUse is the heap and goroutine stacks in use after a GC.
func memInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}
