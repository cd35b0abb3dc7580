package extension

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorReplyIsNotACrash (issue 19 item 10): SynapsCLI restarts an
// extension after any error reply and re-initialises it with an empty
// config, so a plugin that reports a failed tool call loses its config.
// synaps takes an error reply as an answer: the process stays, nothing
// restarts, and the tool call fails with the extension's message.
func TestErrorReplyIsNotACrash(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "picky", map[string]any{
		"permissions": []string{"tools.register"},
		"config":      []map[string]any{{"key": "mode", "default": "strict"}},
	}, fakeSpec{Record: true, Modes: map[string]string{"tool:fail": "rpc-error:no such file"},
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"fail","description":"fails","input_schema":{"type":"object"}},{"name":"ok","description":"works","input_schema":{"type":"object"}}]}}`)})
	h := startHost(t, base, nil)
	pid := statusOf(t, h, "picky").PID
	for range 3 {
		res := callTool(t, h, "picky_fail", `{}`)
		if !res.IsError || !strings.Contains(res.Output, "fake: no such file") {
			t.Fatalf("tool result = %+v, want the extension's error", res)
		}
	}
	if res := callTool(t, h, "picky_ok", `{}`); res.IsError {
		t.Fatalf("the next call failed: %+v", res)
	}
	st := statusOf(t, h, "picky")
	if st.State != StateLoaded || st.Restarts != 0 || st.PID != pid {
		t.Errorf("after error replies: state %s, restarts %d, pid %d (was %d); want loaded, 0, the same process", st.State, st.Restarts, st.PID, pid)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "init.json"))
	if !strings.Contains(string(b), `"mode":"strict"`) {
		t.Errorf("initialize params %s lack the config", b)
	}
}
