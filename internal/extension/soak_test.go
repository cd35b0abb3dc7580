package extension

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/hook"
)

// TestSoakHookCalls drives tool calls through five hook extensions whose
// processes crash at random (crash-random: each hook.handle exits without
// an answer with probability p, so that about one tool call in `every`
// meets a crash). It checks that every call gets exactly one decision —
// one trace record per subscribed extension per hook, and the chain's
// verdict (a block from the last guard, a replace from the first) unless
// that very extension faulted on that very call — that every extension
// ends loaded or degraded, and that memory stays flat and no process,
// goroutine or file descriptor is left behind.
//
// By default it makes 3,000 calls with a crash in about 1 of 300, a few
// seconds; SYNAPS_SOAK=1 makes it the full soak: 100,000 calls, 1 in 1,000.
// The last full run's numbers are in docs/reliability.md.
func TestSoakHookCalls(t *testing.T) {
	calls, every := 3000, 300
	if os.Getenv("SYNAPS_SOAK") == "1" {
		calls, every = 100_000, 1000
	}
	// Hook calls per tool call: before_tool_call reaches 4 extensions (5
	// for the one call in ten that the last guard matches), after_tool_call 5.
	const hooksPerCall = 9.1
	p := 1 / (float64(every) * hooksPerCall)
	crash := fmt.Sprintf("crash-random:%g", p)

	fdsBefore := countFDs(t)
	base := t.TempDir()
	t.Cleanup(func() {
		// Runs after startHost's cleanup has shut the host down.
		// A confined extension's spawner thread closes its pidfd when
		// told the process ended, on its own thread: allow it a moment.
		after := countFDs(t)
		for deadline := time.Now().Add(5 * time.Second); after > fdsBefore && time.Now().Before(deadline); after = countFDs(t) {
			time.Sleep(10 * time.Millisecond)
		}
		if after > fdsBefore {
			t.Errorf("file descriptors: %d before the host started, %d after it shut down", fdsBefore, after)
		}
		assertNoProcessesIn(t, filepath.Join(base, "plugins"))
	})
	modes := map[string]string{"hook:before_tool_call": crash, "hook:after_tool_call": crash}
	both := []map[string]any{{"hook": "before_tool_call"}, {"hook": "after_tool_call"}}
	// soak1 redacts every output; soak2..4 let everything through; soak5,
	// last in the chain, blocks "rm -rf".
	fakePlugin(t, base, "soak1", map[string]any{"permissions": []string{"tools.intercept", "tools.transform_output"}, "hooks": both},
		fakeSpec{Modes: modes, Results: map[string]json.RawMessage{"hook:after_tool_call": json.RawMessage(`{"action":"replace","output":"[redacted]"}`)}})
	for _, id := range []string{"soak2", "soak3", "soak4"} {
		fakePlugin(t, base, id, map[string]any{"permissions": []string{"tools.intercept"}, "hooks": both},
			fakeSpec{Modes: modes, Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"continue"}`)}})
	}
	fakePlugin(t, base, "soak5", map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{
		{"hook": "before_tool_call", "match": map[string]any{"input_contains": "rm -rf"}}, {"hook": "after_tool_call"}}},
		fakeSpec{Modes: modes, Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"no rm -rf"}`)}})

	tr := &traceCounter{}
	h := startHost(t, base, func(o *Options) { o.Trace = tr })
	for _, s := range h.Statuses() {
		if s.State != StateLoaded {
			t.Fatalf("%s did not start: %+v", s.ID, s)
		}
	}
	goroutinesAtStart := runtime.NumGoroutine()

	ctx := context.Background()
	var (
		mem             []memSample
		blocks          int // decisions that blocked (soak5 answered)
		redactions      int // outputs replaced (soak1 answered)
		openedByFault   int // calls let through because soak5 faulted on them
		unredactedFault int // outputs kept because soak1 faulted on them
		faults          int // hook calls that faulted (a crash whose retry crashed too)
		blockedByFault  int // calls blocked because a guard crashed on them twice
		rmBlockedFault  int // of those, rm calls
	)
	warmup := min(200, calls/10)
	for i := 0; i < calls; i++ {
		if i == warmup || i == calls/2 {
			mem = append(mem, sampleMemory(i))
		}
		rm := i%10 == 0
		input := json.RawMessage(fmt.Sprintf(`{"command":"echo %d"}`, i))
		if rm {
			input = json.RawMessage(fmt.Sprintf(`{"command":"rm -rf /tmp/soak-%d"}`, i))
		}

		tr.begin()
		d := h.BeforeToolCall(ctx, bashSpec(), input, "soak", nil)
		recs := tr.end()
		want := []string{"soak1", "soak2", "soak3", "soak4"}
		if rm {
			want = append(want, "soak5")
		}
		if got := recs.extensions(); !slicesEqual(got, want) {
			t.Fatalf("call %d before_tool_call: decisions from %v, want exactly one from each of %v", i, got, want)
		}
		faults += recs.faults()
		switch {
		case d.Blocked && recs.action(d.BlockedBy) == "fault":
			// A guard that crashed on this input and on its retry could
			// not judge it: the call does not run, whatever its policy.
			blockedByFault++
			if rm {
				rmBlockedFault++
			}
		case d.Blocked && (!rm || d.BlockedBy != "soak5" || d.Reason != hook.BlockedMessage("soak5", "no rm -rf")):
			t.Fatalf("call %d: unexpected block %+v", i, d)
		case d.Blocked:
			blocks++
		case rm && recs.action("soak5") == "fault":
			openedByFault++
		case rm:
			t.Fatalf("call %d: soak5 answered %q but the call was not blocked: %+v", i, recs.action("soak5"), d)
		}

		tr.begin()
		d = h.AfterToolCall(ctx, bashSpec(), input, fmt.Sprintf("%d\n", i), false, "soak")
		recs = tr.end()
		if got := recs.extensions(); !slicesEqual(got, []string{"soak1", "soak2", "soak3", "soak4", "soak5"}) {
			t.Fatalf("call %d after_tool_call: decisions from %v, want exactly one from each extension", i, got)
		}
		faults += recs.faults()
		switch {
		case d.Output != nil && *d.Output == "[redacted]" && slicesEqual(d.ReplacedBy, []string{"soak1"}):
			redactions++
		case d.Output == nil && recs.action("soak1") == "fault":
			unredactedFault++
		default:
			t.Fatalf("call %d: after_tool_call decision %+v (soak1 %q)", i, d, recs.action("soak1"))
		}
	}
	mem = append(mem, sampleMemory(calls))

	restarts := 0
	for _, s := range settledStatuses(t, h) {
		if s.State != StateLoaded && s.State != StateDegraded {
			t.Errorf("%s ended %s: %s", s.ID, s.State, s.Error)
		}
		if (s.Restarts > 0) != (s.State == StateDegraded) {
			t.Errorf("%s: %d restarts but state %s", s.ID, s.Restarts, s.State)
		}
		restarts += s.Restarts
	}
	wantBlocks := (calls + 9) / 10
	if blocks+openedByFault+rmBlockedFault != wantBlocks || redactions+unredactedFault != calls {
		t.Errorf("decisions: %d blocks + %d fail-open = %d rm calls? %d redactions + %d fail-open = %d calls?",
			blocks, openedByFault, wantBlocks, redactions, unredactedFault, calls)
	}
	t.Logf("%d tool calls (%d hook calls), crash probability %.3g per hook call: %d crashes (restarts), %d hook faults (retry crashed too), %d blocks, %d fail-open blocks, %d calls blocked by a guard that crashed on them twice (%d of them rm), %d redactions, %d fail-open redactions",
		calls, tr.total, p, restarts, faults, blocks, openedByFault, blockedByFault, rmBlockedFault, redactions, unredactedFault)
	for _, m := range mem {
		t.Logf("memory after %6d calls: heap %6.2f MiB (%d objects), RSS %6.2f MiB, %d goroutines", m.calls, mib(m.heap), m.objects, mib(m.rss), m.goroutines)
	}
	// Flat: the heap after the run is within 8 MiB of the heap after the
	// warm-up (a leak of one small object per hook call would be ~50 MiB
	// over the full soak).
	if start, end := mem[0], mem[len(mem)-1]; end.heap > start.heap+8<<20 {
		t.Errorf("heap grew from %.2f MiB to %.2f MiB", mib(start.heap), mib(end.heap))
	}
	waitGoroutines(t, goroutinesAtStart)
}

// traceCounter receives the host's trace, one JSON record per hook call,
// and keeps the records of the call under way.
type traceCounter struct {
	mu    sync.Mutex
	recs  traceRecords
	total int
}

type traceRecords []traceRecord

func (c *traceCounter) Write(b []byte) (int, error) {
	var r traceRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.recs = append(c.recs, r)
	c.total++
	c.mu.Unlock()
	return len(b), nil
}

func (c *traceCounter) begin() {
	c.mu.Lock()
	c.recs = c.recs[:0]
	c.mu.Unlock()
}

func (c *traceCounter) end() traceRecords {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append(traceRecords(nil), c.recs...)
}

func (rs traceRecords) extensions() []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Extension
	}
	return out
}

func (rs traceRecords) action(ext string) string {
	for _, r := range rs {
		if r.Extension == ext {
			return r.Action
		}
	}
	return ""
}

func (rs traceRecords) faults() int {
	n := 0
	for _, r := range rs {
		if r.Action == "fault" {
			n++
		}
	}
	return n
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

type memSample struct {
	calls      int
	heap       uint64 // HeapAlloc after a GC
	objects    uint64 // HeapObjects after a GC
	rss        uint64 // VmRSS
	goroutines int
}

func sampleMemory(calls int) memSample {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memSample{calls: calls, heap: ms.HeapAlloc, objects: ms.HeapObjects, rss: vmRSS(), goroutines: runtime.NumGoroutine()}
}

// vmRSS reads this process's resident set size from /proc/self/status.
func vmRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func countFDs(t testing.TB) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors: %v", err)
	}
	return len(entries)
}

// settledStatuses waits until no extension is restarting.
func settledStatuses(t *testing.T, h *Host) []Status {
	deadline := time.Now().Add(15 * time.Second)
	for {
		sts := h.Statuses()
		busy := false
		for _, s := range sts {
			busy = busy || s.State == StateRestarting || s.State == StateStarting
		}
		if !busy || time.Now().After(deadline) {
			return sts
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGoroutines fails unless the goroutine count comes back to n: every
// crashed process's reaper, reader and watcher goroutines have ended and
// the replacement's are the only ones running.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines at the end, %d at the start:\n%s", got, n, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
