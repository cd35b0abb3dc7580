package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProtocolCheck: the checklist's "extension_protocol_version: 1 set"
// passes for an explicit 1 or 2 (SynapsCLI's protocol 2 plugins), in
// either spelling, and warns when the version is left to the default.
func TestProtocolCheck(t *testing.T) {
	for _, tt := range []struct{ ext, status, detail string }{
		{`{"extension_protocol_version": 1}`, CheckPass, "extension_protocol_version: 1"},
		{`{"protocol_version": 2}`, CheckPass, "protocol_version: 2"},
		{`{"command": "x"}`, CheckWarn, `not set; add "extension_protocol_version": 1 to the extension object`},
	} {
		file := filepath.Join(t.TempDir(), "plugin.json")
		if err := os.WriteFile(file, []byte(`{"name":"p","extension":`+tt.ext+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if status, detail := protocolCheck(file); status != tt.status || detail != tt.detail {
			t.Errorf("%s: %s %q, want %s %q", tt.ext, status, detail, tt.status, tt.detail)
		}
	}
}
