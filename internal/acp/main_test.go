package acp_test

import (
	"context"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/cli"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// TestMain lets the test binary be what the tests start: a fake
// extension (exttest), an MCP server (mcptest), or synaps itself ("synaps-main ARGS…", for the
// Node client, which starts `synaps acp` as an editor would).
func TestMain(m *testing.M) {
	exttest.Main()
	mcptest.Main()
	if len(os.Args) > 1 && os.Args[1] == "synaps-main" {
		os.Exit(cli.Main(context.Background(), os.Args[2:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
	}
	goleak.VerifyTestMain(m)
}
