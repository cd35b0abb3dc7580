package app

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// lingerer is a plugin whose on_session_end hook never answers and whose
// process ignores the shutdown request and SIGTERM: the worst extension
// to end a session with.
func lingerer(t *testing.T, base string) string {
	return exttest.Plugin(t, base, "lingerer", map[string]any{
		"permissions": []string{"session.lifecycle"},
		"hooks":       []map[string]any{{"hook": "on_session_end"}},
	}, exttest.Spec{Record: true, Modes: map[string]string{"hook:on_session_end": "hang"}, Shutdown: "ignore"})
}

// endings collects what Close tells the user.
type endings struct {
	mu   sync.Mutex
	msgs []string
}

func (e *endings) add(m string) { e.mu.Lock(); e.msgs = append(e.msgs, m); e.mu.Unlock() }
func (e *endings) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.msgs, "\n")
}

// waitClose waits for Close to return; the minute is only a backstop
// against a hang, not a measure of speed.
func waitClose(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Close still waits for the hung extension")
	}
}

// While an on_session_end hook hangs (with a one-hour hook deadline and
// budget), a SIGTERM ends the wait at once and the extension is killed.
// cmd/synaps turns SIGTERM into a cancelled context for the whole run; the
// test does the same, so before the fix the signal was swallowed by that
// handler and Close waited the full hour.
func TestCloseEndsAtOnceOnSignal(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(base, "config"), "extension_hook_timeout_ms = 3600000\n")
	dir := lingerer(t, base)
	a := open(t, base, work, `{"text":"hi"}`)
	a.endBudget = &[2]time.Duration{time.Hour, time.Hour}
	var said endings
	a.OnEnding = said.add
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM) // as cmd/synaps
	defer stop()

	done := make(chan error, 1)
	go func() { done <- a.Close(context.WithoutCancel(ctx)) }()
	// The hook is being handled once the fake recorded it.
	for {
		if b, _ := os.ReadFile(filepath.Join(dir, "record.jsonl")); strings.Contains(string(b), "on_session_end") {
			break
		}
		select {
		case <-done:
			t.Fatal("Close returned before on_session_end reached the extension")
		case <-time.After(5 * time.Millisecond):
		}
	}
	if self, err := os.FindProcess(os.Getpid()); err != nil || self.Signal(syscall.SIGTERM) != nil {
		t.Fatalf("cannot send SIGTERM to the test process (%v)", err)
	}
	waitClose(t, done)
	if !strings.Contains(said.String(), "stopped waiting for extensions (signal): those still running were killed") {
		t.Errorf("the user was told %q", said.String())
	}
	exttest.AssertNoChildren(t)
}

// Without any signal the end is bounded too: hooks get their budget, then
// the extensions theirs, and what still runs is killed.
func TestCloseIsBoundedWithoutSignal(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(base, "config"), "extension_hook_timeout_ms = 3600000\n")
	lingerer(t, base)
	a := open(t, base, work, `{"text":"hi"}`)
	a.endBudget = &[2]time.Duration{100 * time.Millisecond, 100 * time.Millisecond}
	var said endings
	a.OnEnding = said.add
	done := make(chan error, 1)
	go func() { done <- a.Close(context.Background()) }()
	waitClose(t, done)
	if !strings.Contains(said.String(), "on_session_end hooks did not finish within 100ms; stopped waiting for them") {
		t.Errorf("the user was told %q", said.String())
	}
	exttest.AssertNoChildren(t)
}

// The default budget: the hook deadline, at most EndHookBudget.
func TestEndBudgets(t *testing.T) {
	for cfg, want := range map[string]time.Duration{
		"":                                    5 * time.Second,
		"extension_hook_timeout_ms = 2000\n":  2 * time.Second,
		"extension_hook_timeout_ms = 20000\n": EndHookBudget,
		"extension_hook_timeout_ms = bad\n":   5 * time.Second,
	} {
		base, work := t.TempDir(), t.TempDir()
		write(t, filepath.Join(base, "config"), cfg)
		a := open(t, base, work, `{"text":"hi"}`)
		if h, s := a.endBudgets(); h != want || s != EndStopBudget {
			t.Errorf("%q: budgets %v, %v; want %v, %v", cfg, h, s, want, EndStopBudget)
		}
	}
}
