package extension

import (
	"slices"
	"testing"

	"github.com/synaps-cli/synaps/internal/mcp"
)

// MCP servers get the same pass-through variables extensions get: one
// list of what leaves synaps's environment unasked.
func TestMCPPassEnvIsBaseEnv(t *testing.T) {
	if !slices.Equal(baseEnv, mcp.PassEnv) {
		t.Errorf("extensions inherit %v but MCP servers %v; keep internal/mcp's PassEnv equal to baseEnv", baseEnv, mcp.PassEnv)
	}
}
