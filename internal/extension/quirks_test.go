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

// TestRestartKeepsConfig (issue 19 item 10): SynapsCLI re-initialises a
// restarted extension with an empty config. synaps sends the same
// resolved config again — a secret_env value included — and writes none
// of it to disk.
func TestRestartKeepsConfig(t *testing.T) {
	base := t.TempDir()
	dir := fakePlugin(t, base, "keeper", map[string]any{
		"permissions": []string{"tools.register"},
		"config":      []map[string]any{{"key": "token", "secret_env": "KEEPER_TOKEN", "required": true}, {"key": "mode", "default": "strict"}},
	}, fakeSpec{Record: true, Modes: map[string]string{"tool:boom": "crash-once"},
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"boom","description":"crashes once","input_schema":{"type":"object"}}]}}`)})
	h := startHost(t, base, func(o *Options) {
		o.Getenv = func(k string) string {
			if k == "KEEPER_TOKEN" {
				return "s3cret"
			}
			return os.Getenv(k)
		}
	})
	os.Remove(filepath.Join(dir, "init.json"))
	callTool(t, h, "keeper_boom", `{}`) // crashes the process; it restarts
	// The next call waits for the restarted process, initialised by then.
	if res := callTool(t, h, "keeper_boom", `{}`); res.IsError {
		t.Fatalf("the call after the restart failed: %+v", res)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "init.json"))
	var init struct{ Config map[string]any }
	if err := json.Unmarshal(b, &init); err != nil {
		t.Fatalf("no initialize after the restart: %q, %v", b, err)
	}
	if init.Config["token"] != "s3cret" || init.Config["mode"] != "strict" {
		t.Errorf("config after the restart = %v", init.Config)
	}
	if _, err := os.Stat(filepath.Join(dir, "config")); err == nil {
		t.Error("the resolved config was written to the plugin's config file")
	}
}
