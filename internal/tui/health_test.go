package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/host"
)

// The status line's extension count follows the background start: it
// said "ext 0 ok" with every extension installed until the next health
// tick (2 s), long after they were up. While they start it says so; the
// start's end refreshes it.
func TestStatusHealthFollowsTheStart(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	plug := exttest.Plugin(t, base, "gated", map[string]any{"permissions": []string{"hooks.on_session_start"}, "hooks": []map[string]any{{"hook": "on_session_start"}}},
		exttest.Spec{InitMode: "gate"})
	script := filepath.Join(dir, "script.jsonl")
	if err := os.WriteFile(script, []byte(`{"text":"hi"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	br := newBridge()
	msgs := make(chan tea.Msg, 1000)
	br.attach(func(msg tea.Msg) { msgs <- msg })
	hs, err := host.New().Open(context.Background(), app.Options{
		Getenv:  func(k string) string { return map[string]string{"PATH": os.Getenv("PATH")}[k] },
		BaseDir: base, WorkDir: dir, Model: "script:" + script, Background: true,
		Progress: func(starting []string) { br.send(progressMsg{starting}) },
		OnEvent:  br.event, Confirmer: br, Version: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(context.Background(), hs, br, colorprofile.ASCII, []string{"NO_COLOR=1"})
	t.Cleanup(func() { br.stop(); m.stopWork(); hs.Close(context.Background()) })
	m.Init()
	m.update(tea.WindowSizeMsg{Width: 300, Height: 30}) // the script's path is long
	h := &harness{t: t, m: m, msgs: msgs}
	if v := h.view(); !strings.Contains(v, "ext 0 ok · 1 starting") {
		t.Errorf("the status line does not say an extension is starting:\n%s", v)
	}
	if err := os.WriteFile(filepath.Join(plug, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.until("the start to end", func(msg tea.Msg) bool {
		p, ok := msg.(progressMsg)
		return ok && len(p.starting) == 0
	})
	if v := h.view(); !strings.Contains(v, "ext 1 ok") || strings.Contains(v, "starting") {
		t.Errorf("the status line does not follow the end of the start:\n%s", v)
	}
}
