package mcptest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// EverythingVersion is the version of @modelcontextprotocol/server-
// everything that .ci/run installs (a test holds the two equal).
const EverythingVersion = "2026.8.31"

// Everything finds the reference server: $SYNAPS_MCP_EVERYTHING,
// mcp-server-everything on PATH, or the copy .ci/run installs under the
// repository's .ci/npm. Without it the test is skipped, saying how to
// install it.
func Everything(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("SYNAPS_MCP_EVERYTHING"); p != "" {
		return p
	}
	if p, err := exec.LookPath("mcp-server-everything"); err == nil {
		return p
	}
	if _, err := exec.LookPath("node"); err == nil {
		_, file, _, _ := runtime.Caller(0)
		p := filepath.Join(filepath.Dir(file), "..", "..", "..", ".ci", "npm", "node_modules", ".bin", "mcp-server-everything")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("@modelcontextprotocol/server-everything is not installed: run .ci/run, or " +
		"npm install --prefix .ci/npm @modelcontextprotocol/server-everything@" + EverythingVersion)
	return ""
}

// EverythingHTTP runs the reference server's streamable HTTP transport on
// a free loopback port until the test ends, and returns its url.
func EverythingHTTP(t testing.TB, bin string) string {
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
