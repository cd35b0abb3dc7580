package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestLoadRefusesBadSessionID: session/load's sessionId names files in
// the sessions directory, so one that is a path ("../outside", absolute,
// with "/" or a NUL) is answered with a JSON-RPC error naming it, and
// the session file it points at outside sessions/ is neither read nor
// appended to, nor a lock made for it.
func TestLoadRefusesBadSessionID(t *testing.T) {
	base := t.TempDir()
	model := script(t, base, "turns.jsonl", `{"text":"hi"}`)
	// A whole session, outside the sessions directory: a load of
	// "../outside" opened it and appended to it.
	outside := filepath.Join(base, "outside.jsonl")
	const file = `{"v":1,"type":"session","time":"2026-01-01T00:00:00Z","id":"outside","model":"x","cwd":"/"}
{"v":1,"type":"message","time":"2026-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"secret"}]}}
{"v":1,"type":"message","time":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]}}
`
	if err := os.WriteFile(outside, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, base, model, &editor{})
	ctx := context.Background()
	for _, id := range []string{"../outside", strings.TrimSuffix(outside, ".jsonl"), "a/b", "x\x00y", ".hidden", "..", "\x1b]0;pwned\x07"} {
		_, err := r.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: r.work, McpServers: []sdk.McpServer{}})
		var re *sdk.RequestError
		if err == nil || !strings.Contains(errText(err), "is not a session id") || !strings.Contains(errText(err), "an id looks like") {
			t.Errorf("load %q: %v, want an error saying it is not a session id", id, errText(err))
		} else if !errors.As(err, &re) || re.Code != -32602 {
			t.Errorf("load %q: %v, want a JSON-RPC invalid-params error", id, errText(err))
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != file {
		t.Errorf("the file outside sessions/ was written:\n%s", b)
	}
	if m, _ := filepath.Glob(filepath.Join(base, "sessions", "*.lock")); len(m) > 0 {
		t.Errorf("locks made outside sessions/locks: %q", m)
	}
}
