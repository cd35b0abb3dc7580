package extension

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// writeManifest writes a plugin dir with a hand-written (possibly broken)
// plugin.json.
func writeManifest(t *testing.T, base, id, text string) {
	t.Helper()
	dir := filepath.Join(base, "plugins", id, plugin.ManifestDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, plugin.ManifestFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A fail-closed guard whose manifest does not load keeps guarding: the
// calls it would have judged are blocked with a reason naming the plugin
// and the manifest error; its filter is kept when it can be read.
func TestBrokenFailClosedGuardStillBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, manifest string
		// blocked: whether bash and write calls are blocked
		bash, write bool
		// reason must hold this text of the manifest error
		reason string
	}{
		{
			name:     "policy spelled Closed",
			manifest: `{"name":"guard","extension":{"command":"x","protocol_version":1,"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","tool":"bash"}],"failure_policy":"Closed"}}`,
			bash:     true, write: false, reason: `unknown failure policy "Closed"`,
		},
		{
			name:     "typo in a permission",
			manifest: `{"name":"guard","extension":{"command":"x","protocol_version":1,"permissions":["tools.intercep"],"failure_policy":"closed"}}`,
			bash:     true, write: true, reason: `unknown permission "tools.intercep"`,
		},
		{
			name:     "trailing comma",
			manifest: "{\"name\":\"guard\",\"extension\":{\"command\":\"x\",\"protocol_version\":1,\"permissions\":[\"tools.intercept\"],\"failure_policy\":\"closed\",}}",
			bash:     true, write: true, reason: "plugin.json",
		},
		{
			name:     "a broken fail-open plugin guards nothing",
			manifest: `{"name":"guard","extension":{"command":"x","protocol_version":1,"permissions":["tools.intercep"]}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			writeManifest(t, base, "guard", tc.manifest)
			h := startHost(t, base, nil)
			for _, c := range []struct {
				spec    func() (string, string)
				blocked bool
			}{
				{func() (string, string) { return "bash", `{"command":"touch /tmp/x"}` }, tc.bash},
				{func() (string, string) { return "write", `{"path":"x","content":"y"}` }, tc.write},
			} {
				name, input := c.spec()
				spec := bashSpec()
				spec.Name, spec.RuntimeName = name, name
				d := h.BeforeToolCall(context.Background(), spec, json.RawMessage(input), "s", nil)
				if d.Blocked != c.blocked {
					t.Errorf("%s: blocked = %v, want %v (%s)", name, d.Blocked, c.blocked, d.Reason)
					continue
				}
				if d.Blocked && (d.BlockedBy != "guard" || !strings.Contains(d.Reason, "Tool call blocked by extension guard: the extension failed (its manifest did not load: ") ||
					!strings.Contains(d.Reason, tc.reason) || !strings.Contains(d.Reason, "failure_policy is closed")) {
					t.Errorf("%s: reason = %q", name, d.Reason)
				}
			}
			st := h.Statuses()
			if len(st) != 1 || st[0].State != StateFailed {
				t.Fatalf("statuses = %+v", st)
			}
			if shown := strings.Contains(strings.Join(st[0].Warnings, "\n"), "failure_policy is closed"); shown != (tc.bash || tc.write) {
				t.Errorf("list warnings = %q", st[0].Warnings)
			}
		})
	}
}
