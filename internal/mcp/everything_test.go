package mcp

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/tool"
)

// EverythingBin finds the reference server @modelcontextprotocol/server-
// everything: $SYNAPS_MCP_EVERYTHING, mcp-server-everything on PATH, or
// the copy .ci/run installs under .ci/npm. Tests that need it skip
// without it, saying how to install it.
func everythingBin(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("SYNAPS_MCP_EVERYTHING"); p != "" {
		return p
	}
	if p, err := exec.LookPath("mcp-server-everything"); err == nil {
		return p
	}
	if _, err := exec.LookPath("node"); err == nil {
		p, _ := filepath.Abs(filepath.Join("..", "..", ".ci", "npm", "node_modules", ".bin", "mcp-server-everything"))
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("@modelcontextprotocol/server-everything is not installed: run .ci/run, or " +
		"npm install --prefix .ci/npm @modelcontextprotocol/server-everything@" + EverythingVersion)
	return ""
}

// EverythingVersion is the version .ci/run installs (kept equal by
// TestCIPinsEverything).
const EverythingVersion = "2026.8.31"

func TestCIPinsEverything(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "@modelcontextprotocol/server-everything@"+EverythingVersion) {
		t.Errorf(".ci/run does not install @modelcontextprotocol/server-everything@%s", EverythingVersion)
	}
}

// startEverythingHTTP runs the reference server's streamable HTTP
// transport on a free loopback port and returns its url.
func startEverythingHTTP(t testing.TB, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.Contains(sc.Text(), "listening on port") {
			go func() {
				for sc.Scan() {
				}
			}()
			return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
		}
	}
	t.Fatalf("server-everything did not start listening: %s", strings.Join(seen, "\n"))
	return ""
}

func TestEverything(t *testing.T) {
	bin := everythingBin(t)
	for _, transport := range []string{TransportStdio, TransportHTTP} {
		t.Run(transport, func(t *testing.T) {
			sv := Server{Name: "everything", Type: TransportStdio, Command: bin, Args: []string{"stdio"}}
			if transport == TransportHTTP {
				sv = Server{Name: "everything", Type: TransportHTTP, URL: startEverythingHTTP(t, bin)}
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

var _ = tool.DefaultMaxOutput
