package extension

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// info.get is asked after initialize of an extension that declared
// tools. Stopping the extension while it is unanswered ends the call:
// that is the normal end of a short session, not a failure, so the log
// says nothing of it. A real failure — the extension crashed on it — is
// still logged.
func TestInfoGetEndedByStopIsNotLogged(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		stop       bool
		logged     bool
	}{
		{name: "stopped while unanswered", mode: "silent", stop: true},
		{name: "crashed on it", mode: "crash", logged: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			toolPlugin(t, base, "slow-info", fakeSpec{Modes: map[string]string{"info.get": tc.mode}})
			h := startHost(t, base, nil)
			h.mu.Lock()
			e := h.exts[0]
			h.mu.Unlock()
			e.mu.Lock()
			done := e.infoDone
			e.mu.Unlock()
			if done == nil {
				t.Fatal("info.get was not asked")
			}
			if tc.stop {
				h.Shutdown()
			}
			<-done
			// The log file, and what synaps keeps of it in memory (the
			// file is closed at stop).
			log := logOf(t, base, "slow-info") + strings.Join(e.log.lines(0), "\n")
			if got := strings.Contains(log, "info.get: "); got != tc.logged {
				t.Errorf("info.get logged: %v, want %v; log:\n%s", got, tc.logged, log)
			}
			if strings.Contains(log, "context canceled") {
				t.Errorf("the log tells of a cancelled context:\n%s", log)
			}
		})
	}
}

// A hook call the caller gives up on (the user interrupted the turn) is
// not the extension's fault: the log says nothing of it. One that runs
// out of the hook's deadline still is logged (TestFaultHangFailsOpen).
func TestHookCallCancelledByCallerIsNotLogged(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "ponder", map[string]any{
		"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}},
	}, fakeSpec{Record: true, Modes: map[string]string{"hook:before_tool_call": "hang"}})
	h := startHost(t, base, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancelled once the extension has the call (it records it,
		// then hangs). Only the file's size is read here: a test may
		// not fail from another goroutine, and a line being written
		// need not parse yet.
		for {
			if fi, err := os.Stat(filepath.Join(dir, "record.jsonl")); err == nil && fi.Size() > 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	h.BeforeToolCall(ctx, bashSpec(), json.RawMessage(`{"command":"ls"}`), "s", nil)
	if log := logOf(t, base, "ponder"); strings.Contains(log, "before_tool_call") {
		t.Errorf("the cancelled call was logged:\n%s", log)
	}
}
