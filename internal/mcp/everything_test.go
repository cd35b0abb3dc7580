package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

func TestCIPinsEverything(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "@modelcontextprotocol/server-everything@"+mcptest.EverythingVersion) {
		t.Errorf(".ci/run does not install @modelcontextprotocol/server-everything@%s", mcptest.EverythingVersion)
	}
}

func TestEverything(t *testing.T) {
	bin := mcptest.Everything(t)
	for _, transport := range []string{TransportStdio, TransportHTTP} {
		t.Run(transport, func(t *testing.T) {
			sv := Server{Name: "everything", Type: TransportStdio, Command: bin, Args: []string{"stdio"}}
			if transport == TransportHTTP {
				sv = Server{Name: "everything", Type: TransportHTTP, URL: mcptest.EverythingHTTP(t, bin)}
			}
			m, reg := start(t, Options{WorkDir: t.TempDir()}, sv)
			st := statusOf(t, m, "everything")
			if st.State != StateReady {
				t.Fatalf("state %s: %s\n%s", st.State, st.Err, strings.Join(st.Stderr, "\n"))
			}
			for _, name := range []string{"mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__get-tiny-image", "mcp__everything__get-env"} {
				if _, _, ok := reg.Lookup(name); !ok {
					t.Errorf("%s is not registered; the registry has %v", name, reg.Names())
				}
			}
			if res := run(t, reg, "mcp__everything__echo", `{"message":"hello"}`); res.IsError || !strings.Contains(res.Output, "hello") {
				t.Errorf("echo: %+v", res)
			}
			if res := run(t, reg, "mcp__everything__get-sum", `{"a":2,"b":3}`); res.IsError || !strings.Contains(res.Output, "5") {
				t.Errorf("get-sum: %+v", res)
			}
			res := run(t, reg, "mcp__everything__get-tiny-image", `{}`)
			if ims := res.Images(); res.IsError || len(ims) != 1 || ims[0].MediaType != "image/png" || ims[0].Data == "" {
				t.Errorf("get-tiny-image: %d images %+v, output %q; want one png", len(ims), ims, res.Output)
			}
			// An unknown tool is the server's error, a tool error for the
			// model.
			m.mu.Lock()
			s := m.servers[0]
			m.mu.Unlock()
			if res, err := (&mcpTool{s: s, remote: "no-such-tool"}).Run(t.Context(), nil); err != nil || !res.IsError {
				t.Errorf("unknown tool: %+v, %v; want a tool error", res, err)
			}
			if transport == TransportStdio {
				// The secret in synaps's environment never reaches the
				// server.
				res := run(t, reg, "mcp__everything__get-env", `{}`)
				if strings.Contains(res.Output, "s3cret") || strings.Contains(res.Output, "SYNAPS_TEST_SECRET") || !strings.Contains(res.Output, "PATH") {
					t.Errorf("get-env shows the secret, or no PATH:\n%s", res.Output)
				}
			}
			// The server adds get-roots-list once it knows the client
			// offers roots, and says so with tools/list_changed.
			eventually(t, "get-roots-list is registered", func() bool {
				_, _, ok := reg.Lookup("mcp__everything__get-roots-list")
				return ok
			})
		})
	}
}
