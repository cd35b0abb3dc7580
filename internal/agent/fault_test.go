package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/script"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// Fault injection, end to end: a scripted model drives a real agent whose
// bash calls pass through a real extension host to one guard extension —
// the Go fake, misbehaving in one way per case. The guard answers "block"
// whenever it answers at all, so a marker file tells which decision was
// taken: the command ran (fail-open, or a fault before the guard could
// answer) or it did not (the guard's block was honoured, or fail-closed).
//
// For every case the test checks that
//   - the agent session completes (Send returns nil, the model's last turn
//     is played);
//   - each call's decision, by its marker file and its tool result;
//   - the health the user sees (Host.Statuses: loaded, degraded or failed,
//     with the reason in the status or the extension's log);
//   - that nothing is left behind once the session has ended and the host
//     has shut down: no child process, no process running in the plugin
//     dir, no goroutine, no file descriptor.
//
// docs/reliability.md lists each fault with the test that proves it.

const guardBlock = `{"action":"block","reason":"guarded by the fake"}`

type faultCase struct {
	name string
	// policy is the guard's extension.failure_policy: open or closed.
	policy string
	// spec is the fake's behaviour; its before_tool_call result is
	// guardBlock unless set.
	spec exttest.Spec
	// hookTimeout and initTimeout shorten the host's deadlines (0: default).
	hookTimeout, initTimeout time.Duration
	// ran: per bash call, whether its command must have run. Its length is
	// the number of tool calls the model makes.
	ran []bool
	// blocked is a substring of the tool result of each blocked call.
	blocked string
	// state is the guard's settled health; statusError a substring of
	// Status.Error (failed) and logWant of its log.
	state       extension.State
	statusError string
	logWant     string
	// restarts, if >= 0, is the expected Status.Restarts.
	restarts int
}

const (
	honoured = "Tool call blocked by extension guard: guarded by the fake"
	closedBy = "Tool call blocked by extension guard: the extension failed"
)

func TestFaultAgentSession(t *testing.T) {
	mode := func(m string) exttest.Spec {
		return exttest.Spec{Modes: map[string]string{"hook:before_tool_call": m}}
	}
	for _, tc := range []faultCase{
		// A crash at a chosen call: the process is restarted and the call
		// retried once, so the guard's answer still counts.
		{name: "crash-at-call-1/open", policy: "open", spec: mode("crash-at:1"), ran: []bool{false, false}, blocked: honoured,
			state: extension.StateDegraded, logWant: "process crashed (exited with status 4; stderr: fake: crash-at 1 on hook:before_tool_call)", restarts: 1},
		{name: "crash-at-call-2/closed", policy: "closed", spec: mode("crash-at:2"), ran: []bool{false, false, false}, blocked: honoured,
			state: extension.StateDegraded, logWant: "restarted (restart 1)", restarts: 1},
		// A crash on every call: the retry crashes too, the fault policy
		// decides, and after MaxRestarts failed restarts the guard is failed.
		{name: "crash-every-call/open", policy: "open", spec: mode("crash"), ran: []bool{true, true}, state: extension.StateFailed,
			statusError: "crashed 4 times in a row; last: exited with status 4", restarts: extension.MaxRestarts},
		{name: "crash-every-call/closed", policy: "closed", spec: mode("crash"), ran: []bool{false, false}, blocked: closedBy,
			state: extension.StateFailed, statusError: "crashed 4 times in a row", restarts: extension.MaxRestarts},
		// A hang: the hook deadline ends the wait; the process stays.
		{name: "hang/open", policy: "open", spec: mode("hang"), hookTimeout: 200 * time.Millisecond, ran: []bool{true, true},
			state: extension.StateLoaded, logWant: "no answer to before_tool_call within 200ms", restarts: 0},
		{name: "hang/closed", policy: "closed", spec: mode("hang"), hookTimeout: 200 * time.Millisecond, ran: []bool{false, false}, blocked: closedBy,
			state: extension.StateLoaded, logWant: "no answer to before_tool_call within 200ms", restarts: 0},
		// A late answer: within the deadline it counts; past it, it is a
		// timeout, and the answer that arrives later is dropped as an
		// unknown id without harming the connection.
		{name: "late-within-deadline", policy: "open", spec: mode("late:100"), hookTimeout: 5 * time.Second, ran: []bool{false, false}, blocked: honoured,
			state: extension.StateLoaded, restarts: 0},
		{name: "late-past-deadline/open", policy: "open", spec: mode("late:400"), hookTimeout: 100 * time.Millisecond, ran: []bool{true, true},
			state: extension.StateLoaded, logWant: "dropping response with unknown id", restarts: 0},
		{name: "late-past-deadline/closed", policy: "closed", spec: mode("late:400"), hookTimeout: 100 * time.Millisecond, ran: []bool{false, false}, blocked: closedBy,
			state: extension.StateLoaded, logWant: "dropping response with unknown id", restarts: 0},
		// Transport abuse that the reader tolerates: the answer counts.
		{name: "drip-one-byte-at-a-time", policy: "open", spec: mode("drip"), ran: []bool{false, false}, blocked: honoured, state: extension.StateLoaded, restarts: 0},
		{name: "noise-on-stdout", policy: "open", spec: mode("garbage"), ran: []bool{false, false}, blocked: honoured, state: extension.StateLoaded,
			logWant: "debug print without a frame", restarts: 0},
		{name: "body-not-json", policy: "open", spec: mode("badjson"), ran: []bool{false, false}, blocked: honoured, state: extension.StateLoaded, restarts: 0},
		{name: "bad-content-length", policy: "open", spec: mode("badlen"), ran: []bool{false, false}, blocked: honoured, state: extension.StateLoaded, restarts: 0},
		{name: "unknown-response-id", policy: "open", spec: mode("unknownid"), ran: []bool{false, false}, blocked: honoured, state: extension.StateLoaded,
			logWant: "unknown id 999999", restarts: 0},
		{name: "stderr-1MiB-per-call", policy: "open", spec: mode("stderr-flood"), ran: []bool{false, false}, blocked: honoured, state: extension.StateLoaded,
			logWant: strings.Repeat("x", 1023), restarts: 0},
		// Content-Length: 2^40 is a protocol error, never an allocation:
		// the connection ends and the process is killed like a crash.
		{name: "content-length-2^40/open", policy: "open", spec: mode("huge"), ran: []bool{true, true}, state: extension.StateFailed,
			statusError: "protocol error: jsonrpc: frame too large: Content-Length 1099511627776 exceeds the limit", restarts: extension.MaxRestarts},
		{name: "content-length-2^40/closed", policy: "closed", spec: mode("huge"), ran: []bool{false, false}, blocked: closedBy, state: extension.StateFailed,
			statusError: "protocol error", restarts: extension.MaxRestarts},
		// Faults at start: the guard never serves; open lets calls run,
		// closed blocks them although the guard never initialised.
		{name: "exit-during-initialize/open", policy: "open", spec: exttest.Spec{InitMode: "crash"}, ran: []bool{true, true}, state: extension.StateFailed,
			statusError: "process ended during initialize (exited with status 3); stderr: fake: crashing in initialize", restarts: 0},
		{name: "exit-during-initialize/closed", policy: "closed", spec: exttest.Spec{InitMode: "crash"}, ran: []bool{false, false},
			blocked: "Tool call blocked by extension guard: the extension failed (extension is not running (failed: process ended during initialize", state: extension.StateFailed,
			statusError: "process ended during initialize", restarts: 0},
		{name: "hang-during-initialize/open", policy: "open", spec: exttest.Spec{InitMode: "hang"}, initTimeout: 300 * time.Millisecond, ran: []bool{true, true},
			state: extension.StateFailed, statusError: "no initialize response within 300ms", restarts: 0},
		{name: "hang-during-initialize/closed", policy: "closed", spec: exttest.Spec{InitMode: "hang"}, initTimeout: 300 * time.Millisecond, ran: []bool{false, false}, blocked: closedBy,
			state: extension.StateFailed, statusError: "no initialize response within 300ms", restarts: 0},
	} {
		t.Run(tc.name, func(t *testing.T) { runFaultSession(t, tc) })
	}
}

// A grandchild that inherits stdout keeps the pipe open after the
// extension itself crashed: the crash must still be noticed (the retried
// call counts) and the grandchild must be gone after shutdown.
func TestFaultGrandchildKeepsPipesOpen(t *testing.T) {
	runFaultSession(t, faultCase{policy: "open", spec: exttest.Spec{Grandchild: true, Modes: map[string]string{"hook:before_tool_call": "crash-at:1"}},
		ran: []bool{false, false}, blocked: honoured, state: extension.StateDegraded, logWant: "process crashed", restarts: 1})
}

// An extension that neither answers shutdown nor exits on EOF, ignores
// SIGTERM and has a grandchild: the stop sequence ends in SIGKILL of the
// whole process group. (This case waits out the real stop timeouts, ~4 s.)
func TestFaultIgnoresShutdownAndSIGTERM(t *testing.T) {
	runFaultSession(t, faultCase{policy: "open", spec: exttest.Spec{Shutdown: "ignore", Grandchild: true},
		ran: []bool{false}, blocked: honoured, state: extension.StateLoaded, restarts: 0,
		logWant: "stopped (killed by SIGKILL)"})
}

func runFaultSession(t *testing.T, tc faultCase) {
	fdsBefore := openFDs(t)
	ignoreRunning := goleak.IgnoreCurrent()
	base, work := t.TempDir(), t.TempDir()

	if tc.spec.Results == nil {
		tc.spec.Results = map[string]json.RawMessage{}
	}
	if _, ok := tc.spec.Results["hook:before_tool_call"]; !ok {
		tc.spec.Results["hook:before_tool_call"] = json.RawMessage(guardBlock)
	}
	pluginDir := exttest.Plugin(t, base, "guard", map[string]any{
		"permissions":    []string{"tools.intercept"},
		"hooks":          []map[string]any{{"hook": "before_tool_call", "tool": "bash"}},
		"failure_policy": tc.policy,
	}, tc.spec)

	var sb strings.Builder
	for i := range tc.ran {
		fmt.Fprintf(&sb, `{"tool_calls":[{"name":"bash","input":{"command":"touch ran-%d && echo ran %d"}}]}`+"\n", i, i)
	}
	sb.WriteString(`{"text":"session complete"}` + "\n")
	model, err := script.Parse("faults.jsonl", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}

	reg := tool.NewRegistry()
	for _, bt := range builtin.All(builtin.Options{WorkDir: work}) {
		if _, err := reg.Add(bt); err != nil {
			t.Fatal(err)
		}
	}
	opts := extension.Options{BaseDir: base, Registry: reg, Version: "test", HookTimeout: tc.hookTimeout,
		Getenv: func(k string) string {
			if k == extension.TraceEnv {
				return ""
			}
			return os.Getenv(k)
		}}
	if tc.initTimeout > 0 {
		opts.Deadlines = map[string]time.Duration{contract.MethodInitialize: tc.initTimeout}
	}
	host := extension.NewHost(opts)
	if err := host.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			host.Shutdown()
		}
	}
	defer stop()
	sess, err := session.Create(base, "script:faults.jsonl", work)
	if err != nil {
		t.Fatal(err)
	}
	a := New(Config{Provider: model, Model: "script", System: "system", Tools: reg, Hooks: host, Session: sess})
	ctx := context.Background()

	// The session completes.
	if err := a.Send(ctx, "run the commands"); err != nil {
		t.Fatalf("the agent session did not complete: %v", err)
	}
	if model.Remaining() != 0 {
		t.Errorf("%d script turns not played", model.Remaining())
	}
	msgs := sess.Messages()
	if last := msgs[len(msgs)-1]; last.Role != llm.RoleAssistant || last.Text() != "session complete" {
		t.Errorf("last message = %+v", last)
	}

	// The right decision, call by call.
	var results []llm.Block
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				results = append(results, b)
			}
		}
	}
	if len(results) != len(tc.ran) {
		t.Fatalf("%d tool results for %d calls: %+v", len(results), len(tc.ran), results)
	}
	for i, want := range tc.ran {
		_, err := os.Stat(filepath.Join(work, fmt.Sprintf("ran-%d", i)))
		if ran := err == nil; ran != want {
			t.Errorf("call %d: ran = %v, want %v (result %q)", i, ran, want, results[i].Content)
		}
		switch {
		case want && (results[i].IsError || results[i].Content != fmt.Sprintf("ran %d\n", i)):
			t.Errorf("call %d: result %+v, want the command's output", i, results[i])
		case !want && (!results[i].IsError || !strings.Contains(results[i].Content, tc.blocked)):
			t.Errorf("call %d: result %q, want an error containing %q", i, results[i].Content, tc.blocked)
		}
	}

	// The health the user sees, once any restart under way has ended.
	st := settledStatus(t, host, "guard")
	if st.State != tc.state {
		t.Errorf("state = %s, want %s (status %+v)", st.State, tc.state, st)
	}
	if tc.statusError != "" && !strings.Contains(st.Error, tc.statusError) {
		t.Errorf("status error %q lacks %q", st.Error, tc.statusError)
	}
	if tc.state == extension.StateFailed && st.Error == "" {
		t.Error("a failed extension shows no reason")
	}
	if tc.restarts >= 0 && st.Restarts != tc.restarts {
		t.Errorf("restarts = %d, want %d", st.Restarts, tc.restarts)
	}

	if err := a.End(ctx); err != nil {
		t.Fatal(err)
	}
	stop()

	if tc.logWant != "" {
		log, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", "guard.log"))
		if !strings.Contains(string(log), tc.logWant) {
			t.Errorf("guard.log lacks %q:\n%s", tc.logWant, cut(string(log), 3000))
		}
	}

	// Nothing is left behind.
	exttest.AssertNoChildren(t)
	exttest.AssertNoProcessesIn(t, pluginDir)
	goleak.VerifyNone(t, ignoreRunning)
	if left := leakedFDs(fdsBefore, openFDs(t)); len(left) > 0 {
		t.Errorf("file descriptors left open: %v", left)
	}
}

// settledStatus waits until the extension is not starting or restarting
// and returns its status.
func settledStatus(t *testing.T, h *extension.Host, id string) extension.Status {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for _, s := range h.Statuses() {
			if s.ID != id {
				continue
			}
			if (s.State != extension.StateRestarting && s.State != extension.StateStarting) || time.Now().After(deadline) {
				return s
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// assertNoChildProcesses fails if a live child of this process remains once
// killed processes have had a moment to be reaped.

// openFDs maps each open file descriptor of this process to what it refers to.
func openFDs(t *testing.T) map[string]string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors: %v", err)
	}
	out := map[string]string{}
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err != nil {
			continue // the fd ReadDir itself used, closed by now
		}
		out[e.Name()] = target
	}
	return out
}

// runtimeFD reports descriptors the Go runtime opens once, on first use,
// independent of any goroutine: the netpoller's epoll and its wakeup
// eventfd.
func runtimeFD(target string) bool {
	return target == "anon_inode:[eventpoll]" || target == "anon_inode:[eventfd]"
}

// leakedFDs lists descriptors open after that were not open before (or now
// refer to something else), runtime descriptors aside.
func leakedFDs(before, after map[string]string) []string {
	var left []string
	for fd, target := range after {
		if before[fd] != target && !runtimeFD(target) {
			left = append(left, fd+" -> "+target)
		}
	}
	slices.Sort(left)
	return left
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
