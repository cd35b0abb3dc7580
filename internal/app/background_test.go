package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/permission"
)

// With Background (the terminal UI), Open does not wait for the
// extensions, and the first request waits for the one whose tool it must
// offer: the model can call it.
func TestBackgroundFirstRequestHasTheTools(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	dir := exttest.Plugin(t, base, "gated", map[string]any{"permissions": []string{"tools.register"}},
		exttest.Spec{InitMode: "gate", Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hi","description":"says hi","input_schema":{"type":"object"}}]}}`)})
	write(t, filepath.Join(work, "turns.jsonl"), `{"tool_calls":[{"name":"gated_hi","input":{}}]}
{"text":"done","expect":{"last_tool_result_contains":"ok"}}
`)
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "test", PermissionMode: permission.Bypass, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	if _, _, ok := a.Tools.Lookup("gated_hi"); ok {
		t.Fatal("Open waited for the extension")
	}
	sent := make(chan error, 1)
	go func() { sent <- a.Send(context.Background(), "say hi") }()
	select {
	case err := <-sent:
		t.Fatalf("the request went out before the extension with tools started: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}

// Started in the background (the terminal UI), a plugin that loads with a
// warning — a hook refused for want of its permission — is a notice when
// its start ends, said once, and the status line counts it.
func TestBackgroundLoadWarningIsANotice(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	exttest.Plugin(t, base, "noguard", map[string]any{"permissions": []string{"tools.register"}},
		exttest.Spec{Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hi","description":"says hi","input_schema":{"type":"object"}}],"hooks":[{"name":"before_tool_call"}]}}`)})
	write(t, filepath.Join(work, "turns.jsonl"), `{"text":"done"}`+"\n")
	notices := make(chan string, 16)
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "test", PermissionMode: permission.Bypass, Background: true,
		OnEvent: func(ev agent.Event) {
			if ev.Type == agent.EventNotice {
				notices <- ev.Text
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	// Wait for the event (the minute is only a backstop), then let a turn
	// run: the warning is not said again.
	var said []string
	select {
	case n := <-notices:
		said = append(said, n)
	case <-time.After(time.Minute):
		t.Fatal("no notice within a minute")
	}
	if err := a.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	for len(notices) > 0 {
		if n := <-notices; strings.Contains(n, "loaded with a warning") {
			said = append(said, n)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], `plugin noguard loaded with a warning: refused hook:`) {
		t.Errorf("notices about the warning: %q, want one naming noguard's refused hook", said)
	}
	for _, n := range a.Notes {
		if strings.Contains(n, "loaded with a warning") {
			t.Errorf("said again in the start notes: %q", n)
		}
	}
	if got, want := HealthLine(a.Statuses()), "ext 1 ok · 1 warning"; got != want {
		t.Errorf("HealthLine = %q, want %q", got, want)
	}
}
