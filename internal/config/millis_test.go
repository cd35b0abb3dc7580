package config

import (
	"strings"
	"testing"
	"time"
)

func TestMCPTimeoutKeys(t *testing.T) {
	f, _ := Parse("/u/.synaps-cli/config", []byte("mcp_startup_timeout_ms = 60000\nmcp_tool_timeout_ms = 10m\n"))
	if d, w := f.Millis(KeyMCPStartupTimeoutMS); d != time.Minute || w != "" {
		t.Errorf("mcp_startup_timeout_ms = %v, %q", d, w)
	}
	if d, w := f.Millis(KeyMCPToolTimeoutMS); d != 10*time.Minute || w != "" {
		t.Errorf("mcp_tool_timeout_ms = %v, %q", d, w)
	}
	if ws := f.Check(); len(ws) != 0 {
		t.Errorf("warnings for good values: %v", ws)
	}
	bad, _ := Parse("/u/.synaps-cli/config", []byte("mcp_tool_timeout_ms = forever\n"))
	ws := bad.Check()
	if len(ws) != 1 || !strings.Contains(ws[0], "/u/.synaps-cli/config: mcp_tool_timeout_ms = \"forever\" is not a number of milliseconds") || !strings.Contains(ws[0], "write e.g.") {
		t.Errorf("warnings %q, want one naming file, key and fix", ws)
	}
}
