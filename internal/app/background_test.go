package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

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
