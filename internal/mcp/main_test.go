package mcp

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// testServerEnv makes the test binary the Go test server (mcptest.Run)
// instead of running tests.
const testServerEnv = mcptest.Env

func TestMain(m *testing.M) {
	mcptest.Main()
	goleak.VerifyTestMain(m)
}
