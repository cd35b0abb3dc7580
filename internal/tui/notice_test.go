package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// The tui tests re-run the test binary as a fake extension when an
// extension test asks for one.
func TestMain(m *testing.M) {
	exttest.Main()
	os.Exit(m.Run())
}

// A guard that hangs is said in the session once, however many calls wait
// on it; a guard gone for good is said on every call it would have judged.
func TestModelShowsGuardTimeoutsAndLostGuards(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	guard := map[string]any{"permissions": []string{"tools.intercept"}, "hooks": []map[string]any{{"hook": "before_tool_call"}}}
	exttest.Plugin(t, base, "slow", guard, exttest.Spec{Modes: map[string]string{"hook:before_tool_call": "hang"}})
	exttest.Plugin(t, base, "dead", guard, exttest.Spec{InitMode: "crash"})
	if err := os.WriteFile(filepath.Join(base, "config"), []byte("extension_hook_timeout_ms = 300\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := openHarness(t, dir, base, `{"text":"one","tool_calls":[{"name":"ls","input":{"path":"."}}]}
{"text":"two","tool_calls":[{"name":"ls","input":{"path":"."}}]}
{"text":"done"}
`, true, 300)
	h.typeText("go")
	h.press(tea.KeyEnter, 0)
	h.until("the turn to end", isWorkDone)
	got := h.transcript()
	if n := strings.Count(got, "extension slow did not answer before_tool_call within 300ms, so the call went on without it"); n != 1 {
		t.Errorf("the hung guard is said %d times, want once:\n%s", n, got)
	}
	if n := strings.Count(got, "extension dead is not running (failed: "); n != 2 {
		t.Errorf("the lost guard is said %d times, want on both calls:\n%s", n, got)
	}
}

// An answer the user leaves unread for idleAfter fires on_notification
// (Claude Code's idle_prompt); a key pressed meanwhile cancels it.
func TestModelIdleNotification(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	plug := exttest.Plugin(t, base, "notifier", map[string]any{"permissions": []string{"hooks.on_notification"}, "hooks": []map[string]any{{"hook": "on_notification"}}},
		exttest.Spec{Record: true})
	h := openHarness(t, dir, base, `{"text":"one"}
{"text":"two"}
`, true, 100)
	record := filepath.Join(plug, "record.jsonl")
	h.typeText("go")
	h.press(tea.KeyEnter, 0)
	h.until("the first answer", isWorkDone)
	stale := h.m.idleSeq
	h.typeText("x") // the user is back: the tick set for the answer is stale
	if h.m.idle(idleMsg{stale}) {
		t.Fatal("notified although the user typed after the answer")
	}
	h.press(tea.KeyBackspace, 0)
	h.press(tea.KeyEnter, 0) // an empty input sends nothing
	h.typeText("again")
	h.press(tea.KeyEnter, 0)
	h.until("the second answer", isWorkDone)
	if !h.m.idle(idleMsg{h.m.idleSeq}) {
		t.Fatal("no notification for an answer left unread")
	}
	deadline := time.Now().Add(10 * time.Second)
	var b []byte
	for {
		b, _ = os.ReadFile(record)
		if len(b) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := strings.Count(string(b), `"kind":"on_notification"`); n != 1 || !strings.Contains(string(b), `"notification_type":"idle_prompt"`) || !strings.Contains(string(b), "synaps is waiting for your input") {
		t.Fatalf("%d notifications, want one idle_prompt:\n%s", n, b)
	}
}
