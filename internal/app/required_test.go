package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// TestMCPServeRequiredGuard: a `synaps mcp serve` client's call is held
// to required_guards as a session's is: with the required guard dead,
// the call is blocked, naming it; without the requirement it runs.
func TestMCPServeRequiredGuard(t *testing.T) {
	for _, required := range []bool{false, true} {
		base, work := t.TempDir(), t.TempDir()
		exttest.Plugin(t, base, "dead-guard", map[string]any{
			"permissions": []string{"tools.intercept"},
			"hooks":       []map[string]any{{"hook": "before_tool_call"}},
		}, exttest.Spec{InitMode: "crash"})
		if required {
			if err := os.WriteFile(filepath.Join(base, "config"), []byte("required_guards = dead-guard\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, Version: "test", NoModelOK: true, NoMCP: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		c, leave := serveMCP(t, ctx, a)
		out, isErr, err := c.Call(ctx, "bash", json.RawMessage(`{"command":"echo served"}`))
		if err != nil {
			t.Fatal(err)
		}
		blocked := isErr && strings.Contains(out, "Tool call blocked by required guard dead-guard: it could not judge it (dead: ")
		if required && !blocked {
			t.Errorf("required: bash = %q (error %v); want blocked by required guard dead-guard", out, isErr)
		}
		if !required && (isErr || !strings.Contains(out, "served")) {
			t.Errorf("not required: bash = %q (error %v); want it run", out, isErr)
		}
		leave()
		cancel()
		a.Close(context.Background())
	}
}
