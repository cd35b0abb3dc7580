package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/sandbox"
)

// A stdio server the sandbox refuses to start (here its restricted
// network's proxy cannot be made: TMPDIR is missing) leaves none of the
// pipes Connect made open: before sandbox.Start, the refusal came before
// them.
func TestStdioRefusedStartClosesItsPipes(t *testing.T) {
	if runtime.GOOS != "linux" || !sandbox.Detect().NetNS {
		t.Skip("needs network namespaces (a restricted network takes the helper and its proxy)")
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	refused := func() {
		t.Helper()
		tr := &commandTransport{cmd: exec.Command("/bin/cat"), term: time.Second, limit: MaxMessage, noise: func(string) {},
			policy: &sandbox.Policy{Name: "MCP server t", ReadAll: true, Network: sandbox.Network{Restricted: true}}}
		if _, err := tr.Connect(context.Background()); err == nil {
			t.Fatal("Connect started a server whose proxy could not be made")
		}
	}
	refused() // the runtime's poller and the like, opened once
	before := openFDs(t)
	refused()
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after a refused start, %d before", after, before)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}
