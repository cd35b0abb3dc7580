package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/app"
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
	script := filepath.Join(dir, "script.jsonl")
	if err := os.WriteFile(script, []byte(`{"text":"one","tool_calls":[{"name":"ls","input":{"path":"."}}]}
{"text":"two","tool_calls":[{"name":"ls","input":{"path":"."}}]}
{"text":"done"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	br := newBridge()
	msgs := make(chan tea.Msg, 1000)
	br.attach(func(msg tea.Msg) { msgs <- msg })
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{
		Getenv: func(k string) string {
			if k == "PATH" {
				return os.Getenv(k)
			}
			return ""
		},
		BaseDir: base, WorkDir: dir, Model: "script:" + script, OnEvent: br.event, Confirmer: br, Version: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(ctx, a, br, colorprofile.ASCII, []string{"NO_COLOR=1"})
	t.Cleanup(func() {
		br.stop()
		m.stopWork()
		a.Close(context.Background())
	})
	m.Init()
	m.update(tea.WindowSizeMsg{Width: 300, Height: 30})
	h := &harness{t: t, m: m, msgs: msgs}
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
