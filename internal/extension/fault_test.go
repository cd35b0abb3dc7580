package extension

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
)

// Fault cases, each its own test with the Go fake extension. Every test
// ends (startHost's cleanup) by shutting the host down and checking that
// no child process is left; TestMain checks for goroutine leaks.

const toolInit = `{"protocol_version":1,"capabilities":{"tools":[{"name":"t","description":"a tool","input_schema":{"type":"object"}}]}}`

// idempotentToolInit declares the same tool t as safe to run twice, so a
// call whose process crashed is retried.
const idempotentToolInit = `{"protocol_version":1,"capabilities":{"tools":[{"name":"t","description":"a tool","input_schema":{"type":"object"},"idempotent":true}]}}`

func toolPlugin(t *testing.T, base, id string, spec fakeSpec) string {
	t.Helper()
	if spec.Init == nil {
		spec.Init = json.RawMessage(toolInit)
	}
	return fakePlugin(t, base, id, map[string]any{"permissions": []string{"tools.register"}}, spec)
}

// idempotentToolPlugin is toolPlugin with tool t declared idempotent.
func idempotentToolPlugin(t *testing.T, base, id string, spec fakeSpec) string {
	t.Helper()
	spec.Init = json.RawMessage(idempotentToolInit)
	return toolPlugin(t, base, id, spec)
}

func logOf(t *testing.T, base, id string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", id+".log"))
	return string(b)
}

func TestFaultCrashDuringInitialize(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "dies", fakeSpec{InitMode: "crash"})
	h := startHost(t, base, nil)
	st := statusOf(t, h, "dies")
	if st.State != StateFailed {
		t.Fatalf("state = %s", st.State)
	}
	for _, want := range []string{"process ended during initialize (exited with status 3)", "fake: crashing in initialize"} {
		if !strings.Contains(st.Error, want) {
			t.Errorf("error %q lacks %q", st.Error, want)
		}
	}
	if _, _, ok := h.Registry().Lookup("dies_t"); ok {
		t.Error("a failed extension's tool was registered")
	}
}

func TestFaultHangDuringInitialize(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "mute", fakeSpec{InitMode: "hang"})
	h := startHost(t, base, func(o *Options) {
		o.Deadlines = map[string]time.Duration{contract.MethodInitialize: 300 * time.Millisecond}
	})
	st := statusOf(t, h, "mute")
	if st.State != StateFailed || !strings.Contains(st.Error, "no initialize response within 300ms") || !strings.Contains(st.Error, `\r\n\r\n`) {
		t.Fatalf("status = %+v", st)
	}
}

// A tool call whose process crashes runs the tool at most once unless the
// tool is declared idempotent: otherwise the call is not sent again, and
// the result says which extension crashed, how, its last stderr line, that
// the call was not retried and that the extension is being restarted —
// not "jsonrpc: connection closed: EOF".
func TestFaultToolCrashIsRetriedOnlyIfIdempotent(t *testing.T) {
	for _, tc := range []struct {
		name       string
		plugin     func(*testing.T, string, string, fakeSpec) string
		first      string // the first call's output
		firstError bool
		runs       string // how many requests reached the tool, as the fake counted
	}{{
		name:       "not declared",
		plugin:     toolPlugin,
		first:      `extension flaky crashed while running tool t (exited with status 4; last stderr line: "fake: crash-at 1 on tool:t"); not retried, since the tool may have had side effects (a tool is retried after a crash only if it declares "idempotent": true); synaps is restarting it`,
		firstError: true,
		runs:       "1",
	}, {
		name:   "idempotent",
		plugin: idempotentToolPlugin,
		first:  "ok",
		runs:   "2",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := tc.plugin(t, base, "flaky", fakeSpec{Modes: map[string]string{"tool:t": "crash-at:1"}})
			h := startHost(t, base, nil)
			res := callTool(t, h, "flaky_t", `{}`)
			if diff := cmp.Diff(tc.first, res.Output); diff != "" || res.IsError != tc.firstError {
				t.Errorf("first call: is_error %v, output (-want +got):\n%s", res.IsError, diff)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "count-tool_t")); string(b) != tc.runs {
				t.Errorf("the tool ran %q times, want %s", b, tc.runs)
			}
			if res := callTool(t, h, "flaky_t", `{}`); res.IsError || res.Output != "ok" {
				t.Fatalf("call after restart = %+v", res)
			}
			if st := statusOf(t, h, "flaky"); st.State != StateDegraded || st.Restarts != 1 {
				t.Fatalf("status = %+v", st)
			}
		})
	}
}

// A tool that crashes on every call: each call says it was not retried and
// that synaps restarts the extension, until the crash that exhausts
// MaxRestarts, which says the extension is now failed; later calls fail at
// once.
func TestFaultCrashForeverEndsFailed(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "doomed", fakeSpec{Modes: map[string]string{"tool:t": "crash"}})
	h := startHost(t, base, nil)
	for i := 1; i <= MaxRestarts+1; i++ {
		res := callTool(t, h, "doomed_t", `{}`)
		want := "synaps is restarting it"
		if i == MaxRestarts+1 {
			want = "it has crashed 4 times in a row and is now failed; `synaps extensions logs doomed` shows its log"
		}
		if !res.IsError || !strings.HasPrefix(res.Output, "extension doomed crashed while running tool t (exited with status 4; nothing on stderr); not retried") || !strings.HasSuffix(res.Output, want) {
			t.Fatalf("call %d = %+v, want the crash, not retried, and %q", i, res, want)
		}
	}
	waitFor(t, func() bool { return statusOf(t, h, "doomed").State == StateFailed })
	st := statusOf(t, h, "doomed")
	if st.Restarts != MaxRestarts || !strings.Contains(st.Error, "crashed 4 times in a row") || !strings.Contains(st.Error, "exited with status 4") {
		t.Fatalf("status = %+v", st)
	}
	res := callTool(t, h, "doomed_t", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "not running") {
		t.Errorf("call to failed extension = %+v", res)
	}
}

// A hook is retried after a crash (hooks decide, they do not act); if the
// retry crashes too, the fault names both crashes.
func TestFaultHookCrashIsRetriedAndReported(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept"}, "failure_policy": "closed",
		"hooks": []map[string]any{{"hook": "before_tool_call"}},
	}, fakeSpec{Modes: map[string]string{"hook:before_tool_call": "crash-random:1"}})
	h := startHost(t, base, nil)
	d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	want := `Tool call blocked by extension guard: the extension failed (extension guard crashed while handling before_tool_call (exited with status 4; last stderr line: "fake: crash-random on hook:before_tool_call"), and again when the call was retried on a restarted process (exited with status 4; last stderr line: "fake: crash-random on hook:before_tool_call"); synaps is restarting it) and its failure_policy is closed`
	if diff := cmp.Diff(want, d.Reason); diff != "" || !d.Blocked {
		t.Fatalf("blocked %v, reason (-want +got):\n%s", d.Blocked, diff)
	}
}

func hangingGuard(t *testing.T, base, policy string) {
	t.Helper()
	fakePlugin(t, base, "slowpoke", map[string]any{
		"permissions": []string{"tools.intercept"}, "failure_policy": policy,
		"hooks": []map[string]any{{"hook": "before_tool_call"}},
	}, fakeSpec{Modes: map[string]string{"hook:before_tool_call": "hang"}})
}

func TestFaultHangFailsOpen(t *testing.T) {
	base := t.TempDir()
	hangingGuard(t, base, "open")
	h := startHost(t, base, func(o *Options) { o.HookTimeout = 200 * time.Millisecond })
	d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	if d.Blocked {
		t.Fatalf("fail-open guard blocked: %+v", d)
	}
	if log := logOf(t, base, "slowpoke"); !strings.Contains(log, "no answer to before_tool_call within 200ms") {
		t.Errorf("log lacks the timeout:\n%s", log)
	}
}

func TestFaultHangFailsClosed(t *testing.T) {
	base := t.TempDir()
	hangingGuard(t, base, "closed")
	h := startHost(t, base, func(o *Options) { o.HookTimeout = 200 * time.Millisecond })
	d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	if !d.Blocked || d.BlockedBy != "slowpoke" || !strings.Contains(d.Reason, "failure_policy is closed") {
		t.Fatalf("fail-closed guard did not block: %+v", d)
	}
}

func TestFaultFailClosedGuardThatNeverStartedBlocks(t *testing.T) {
	base := t.TempDir()
	// Guide dialect: hooks are declared only in initialize, which never
	// happens; the permission says what it guards.
	fakePlugin(t, base, "gone", map[string]any{"permissions": []string{"hooks.before_tool_call"}, "failure_policy": "closed"}, fakeSpec{InitMode: "crash"})
	h := startHost(t, base, nil)
	if st := statusOf(t, h, "gone"); st.State != StateFailed {
		t.Fatalf("status = %+v", st)
	}
	d := h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	if !d.Blocked || d.BlockedBy != "gone" || !strings.Contains(d.Reason, "not running") {
		t.Fatalf("decision = %+v", d)
	}
}

func TestFaultProtocolNoiseIsSurvived(t *testing.T) {
	for mode, logWant := range map[string]string{
		"garbage":   "debug print without a frame",
		"badjson":   "not json",
		"badlen":    "Content-Length",
		"unknownid": "999999",
	} {
		t.Run(mode, func(t *testing.T) {
			base := t.TempDir()
			toolPlugin(t, base, "noisy", fakeSpec{Modes: map[string]string{"tool:t": mode}})
			h := startHost(t, base, nil)
			for i := 0; i < 2; i++ {
				if res := callTool(t, h, "noisy_t", `{}`); res.IsError || res.Output != "ok" {
					t.Fatalf("call %d = %+v", i, res)
				}
			}
			if st := statusOf(t, h, "noisy"); st.State != StateLoaded || st.Restarts != 0 {
				t.Errorf("status = %+v", st)
			}
			if log := logOf(t, base, "noisy"); !strings.Contains(log, logWant) {
				t.Errorf("log lacks %q:\n%s", logWant, log)
			}
		})
	}
}

func TestFaultHugeContentLengthIsAProtocolError(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "huge", fakeSpec{Modes: map[string]string{"tool:t": "huge"}})
	h := startHost(t, base, nil)
	res := callTool(t, h, "huge_t", `{}`)
	if !res.IsError {
		t.Fatalf("call = %+v", res)
	}
	if log := logOf(t, base, "huge"); !strings.Contains(log, "protocol error") || !strings.Contains(log, "1099511627776") {
		t.Errorf("log lacks the protocol error:\n%s", log)
	}
}

func TestFaultNoShutdownReplyIsKilledAndReaped(t *testing.T) {
	base := t.TempDir()
	dir := toolPlugin(t, base, "stubborn", fakeSpec{Shutdown: "ignore"})
	h := startHost(t, base, nil)
	h.Shutdown()
	if log := logOf(t, base, "stubborn"); !strings.Contains(log, "stopped (killed by SIGKILL)") {
		t.Errorf("log:\n%s", log)
	}
	assertNoProcessesIn(t, dir)
}

func TestFaultGrandchildHoldingPipes(t *testing.T) {
	base := t.TempDir()
	dir := idempotentToolPlugin(t, base, "forker", fakeSpec{Grandchild: true, Modes: map[string]string{"tool:t": "crash-once"}})
	h := startHost(t, base, nil)
	// The crash must be noticed although the grandchild keeps stdout open.
	if res := callTool(t, h, "forker_t", `{}`); res.IsError {
		t.Fatalf("call = %+v", res)
	}
	h.Shutdown()
	assertNoProcessesIn(t, dir)
}

func TestFaultStderrIsCapturedNotPrinted(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "chatty", fakeSpec{Stderr: "working on it"})
	h := startHost(t, base, nil)
	callTool(t, h, "chatty_t", `{}`)
	lines, ok := h.Logs("chatty", 10)
	if !ok || !strings.Contains(strings.Join(lines, "\n"), "working on it") {
		t.Errorf("tail = %v", lines)
	}
	if !strings.Contains(logOf(t, base, "chatty"), "working on it") {
		t.Error("log file lacks stderr")
	}
}

// An extension killed between calls: the next call finds a broken pipe,
// and is sent again to the restarted process instead of failing.
func TestFaultKilledBetweenCallsIsRetried(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "victim", fakeSpec{})
	h := startHost(t, base, nil)
	for i := 0; i < 10; i++ {
		pid := statusOf(t, h, "victim").PID
		if pid == 0 {
			t.Fatalf("round %d: no pid", i)
		}
		if p, err := os.FindProcess(pid); err != nil || p.Kill() != nil {
			t.Fatalf("round %d: cannot kill %d (%v)", i, pid, err)
		}
		// Call once the process is dead and its pipes closed, so the call
		// finds it gone — a broken pipe, a closed connection or a restart
		// under way — and never a process that may have read the request.
		waitFor(t, func() bool { return processReaped(pid) })
		if res := callTool(t, h, "victim_t", `{}`); res.IsError {
			t.Fatalf("round %d: call after kill = %+v", i, res)
		}
	}
	st := statusOf(t, h, "victim")
	if st.State != StateDegraded || st.Restarts != 10 || !strings.Contains(st.LastCrash, "killed by SIGKILL") {
		t.Fatalf("status = %+v", st)
	}
}

// A hung process is restarted after three unanswered calls in a row, and
// after too many restarts it is failed, so calls stop waiting out the
// deadline.
func TestFaultHungProcessIsRestartedThenFailed(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "stuck", map[string]any{
		"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}},
	}, fakeSpec{Modes: map[string]string{"hook:before_tool_call": "hang"}})
	h := startHost(t, base, func(o *Options) { o.HookTimeout = 50 * time.Millisecond })
	for i := 0; i < 3; i++ {
		h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{}`), "s", nil)
	}
	waitFor(t, func() bool { return statusOf(t, h, "stuck").Restarts == 1 })
	if st := statusOf(t, h, "stuck"); !strings.Contains(st.LastCrash, "hung: no answer to 3 calls in a row") {
		t.Fatalf("status = %+v", st)
	}
	// Each call goes to a running process: one that waits for a restart
	// under way can run out of its deadline before the process is there,
	// and a call the process never saw does not count as unanswered. Three
	// restarts of three unanswered calls each leave it failed.
	for i := 0; i < 9 && statusOf(t, h, "stuck").State != StateFailed; i++ {
		waitFor(t, func() bool { return statusOf(t, h, "stuck").State != StateRestarting })
		h.BeforeToolCall(context.Background(), bashSpec(), json.RawMessage(`{}`), "s", nil)
	}
	waitFor(t, func() bool { return statusOf(t, h, "stuck").State == StateFailed })
	if st := statusOf(t, h, "stuck"); !strings.Contains(st.Error, "hung") {
		t.Fatalf("status = %+v", st)
	}
}

// processReaped reports whether pid is gone from /proc: it has exited and
// synaps has reaped it, so its pipes are closed. (Waiting for a zombie is
// not enough: a Go process's main thread can be a zombie while its other
// threads still hold the descriptor table, and with it the read end of its
// stdin — a request written then looks delivered.)
func processReaped(pid int) bool {
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
	return err != nil
}

// waitFor polls cond for up to 10 s (a bound, not a timing assertion).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not reached within 10 s")
}
