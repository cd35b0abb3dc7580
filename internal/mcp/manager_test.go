package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
	"github.com/synaps-cli/synaps/internal/tool"
)

// waitFor is how long a test waits for a condition before failing: long,
// because the machine is shared; a passing test never waits it out.
const waitFor = 30 * time.Second

// testServer configures the test binary as a stdio server.
func testServer(t testing.TB, name, mode string, env map[string]string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{testServerEnv: mode}
	for k, v := range env {
		e[k] = v
	}
	return Server{Name: name, Type: TransportStdio, Command: exe, Env: e, Source: Source{Kind: "test", File: "test.json"}}
}

// fakeEnv is synaps's environment in the tests: a secret the servers
// must never see, and the PATH they need.
func fakeEnv(k string) string {
	switch k {
	case "SYNAPS_TEST_SECRET":
		return "s3cret"
	case "PATH", "HOME":
		return os.Getenv(k)
	}
	return ""
}

func start(t testing.TB, o Options, servers ...Server) (*Manager, *tool.Registry) {
	t.Helper()
	reg := tool.NewRegistry()
	o.Registry = reg
	if o.Getenv == nil {
		o.Getenv = fakeEnv
	}
	m := NewManager(o)
	t.Cleanup(func() { m.Close() })
	m.Start(&Config{Servers: servers})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatalf("servers not ready: %v", err)
	}
	return m, reg
}

func run(t testing.TB, reg *tool.Registry, name, input string) tool.Result {
	t.Helper()
	tl, _, ok := reg.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s; the registry has %v", name, reg.Names())
	}
	res, err := tl.Run(context.Background(), json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func statusOf(t testing.TB, m *Manager, name string) Status {
	t.Helper()
	for _, st := range m.Statuses() {
		if st.Name == name {
			return st
		}
	}
	t.Fatalf("no server %s", name)
	return Status{}
}

func TestStdioServer(t *testing.T) {
	m, reg := start(t, Options{}, testServer(t, "t", "ok", map[string]string{"GIVEN": "${SYNAPS_TEST_SECRET}"}))
	st := statusOf(t, m, "t")
	if st.State != StateReady {
		t.Fatalf("state %s (%s), want ready", st.State, st.Err)
	}
	want := []string{"mcp__t__add_tool", "mcp__t__echo", "mcp__t__env", "mcp__t__exit", "mcp__t__fail", "mcp__t__image", "mcp__t__slow", "mcp__t__structured"}
	if d := cmp.Diff(want, st.Tools); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, reg.Names()); d != "" {
		t.Errorf("registry (-want +got):\n%s", d)
	}
	_, spec, _ := reg.Lookup("mcp__t__echo")
	if spec.Source != "mcp:t" || !strings.Contains(string(spec.InputSchema), `"text"`) {
		t.Errorf("echo spec %+v: want source mcp:t and the server's schema", spec)
	}
	if _, spec, _ := reg.Lookup("mcp__t__env"); !spec.ReadOnly || spec.Source != "mcp:t" {
		t.Errorf("env spec %+v: want read-only (the server's readOnlyHint)", spec)
	}
	if spec.ReadOnly {
		t.Errorf("echo is read-only without a readOnlyHint")
	}

	tests := []struct {
		tool, input string
		want        tool.Result
	}{
		{"mcp__t__echo", `{"text":"hi"}`, tool.Result{Output: "echo: hi"}},
		{"mcp__t__image", `{}`, tool.Result{Output: "a tiny image", Media: &tool.Media{Images: []tool.Image{{MediaType: "image/png", Data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}}}}},
		{"mcp__t__structured", `{}`, tool.Result{Output: `{"temperature":21}`}},
		{"mcp__t__fail", `{}`, tool.Result{Output: "it failed", IsError: true}},
		// Secrets in synaps's environment stay there ...
		{"mcp__t__env", `{"name":"SYNAPS_TEST_SECRET"}`, tool.Result{Output: "(unset)"}},
		// ... unless the config's env names them.
		{"mcp__t__env", `{"name":"GIVEN"}`, tool.Result{Output: "s3cret"}},
		{"mcp__t__env", `{"name":"PATH"}`, tool.Result{Output: os.Getenv("PATH")}},
	}
	for _, tt := range tests {
		got := run(t, reg, tt.tool, tt.input)
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.tool, tt.input, d)
		}
	}

	t.Run("unknown tool", func(t *testing.T) {
		m.mu.Lock()
		s := m.servers[0]
		m.mu.Unlock()
		res, err := (&mcpTool{s: s, remote: "no-such-tool"}).Run(context.Background(), nil)
		if err != nil || !res.IsError || !strings.Contains(res.Output, "no-such-tool") {
			t.Errorf("got %+v, %v; want a tool error naming the tool", res, err)
		}
	})

	t.Run("list_changed", func(t *testing.T) {
		if res := run(t, reg, "mcp__t__add_tool", `{}`); res.Output != "added" {
			t.Fatalf("add_tool: %+v", res)
		}
		eventually(t, "mcp__t__late is registered", func() bool { _, _, ok := reg.Lookup("mcp__t__late"); return ok })
		if res := run(t, reg, "mcp__t__late", `{}`); res.Output != "late" {
			t.Errorf("late: %+v", res)
		}
	})
}

func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: not yet %s", waitFor, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCloseEndsTheProcess(t *testing.T) {
	m, reg := start(t, Options{}, testServer(t, "t", "ok", nil))
	if m.TerminateDuration() != time.Second {
		t.Errorf("TerminateDuration = %s, want 1s (the SDK's 5 s default makes exits wait)", m.TerminateDuration())
	}
	m.mu.Lock()
	p := m.servers[0].proc
	m.mu.Unlock()
	if p == nil {
		t.Fatal("no process recorded for a stdio server")
	}
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := p.process.Signal(syscall.Signal(0)); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("server process %d after Close: signal 0 says %v, want it done (reaped)", p.process.Pid, err)
	}
	if n := len(reg.Names()); n != 0 {
		t.Errorf("%d tools left in the registry after Close", n)
	}
	if st := statusOf(t, m, "t"); st.State != StateClosed {
		t.Errorf("state %s after Close", st.State)
	}
}

func TestFailedServers(t *testing.T) {
	missing := Server{Name: "missing", Type: TransportStdio, Command: "no-such-mcp-server-xyz", Source: Source{File: "/cfg/.mcp.json"}}
	unset := testServer(t, "unset", "ok", map[string]string{"KEY": "${NOT_SET_ANYWHERE}"})
	unset.Source.File, unset.Line = "/cfg/mcp.json", 7
	bad := Server{Name: "bad", Err: errors.New("/cfg/x.json:2: server \"bad\": has both command and url")}
	m, reg := start(t, Options{}, testServer(t, "crash", "crash", nil), missing, unset, bad, Server{Name: "off", Command: "x", Disabled: true})
	tests := []struct {
		name  string
		state State
		err   string
	}{
		{"crash", StateFailed, ""},
		{"missing", StateFailed, `cannot start "no-such-mcp-server-xyz"`},
		{"unset", StateFailed, `server "unset" (/cfg/mcp.json:7): env.KEY: ${NOT_SET_ANYWHERE} is not set`},
		{"bad", StateFailed, "has both command and url"},
		{"off", StateDisabled, ""},
	}
	for _, tt := range tests {
		st := statusOf(t, m, tt.name)
		if st.State != tt.state || !strings.Contains(st.Err, tt.err) {
			t.Errorf("%s: state %s, error %q; want %s with %q", tt.name, st.State, st.Err, tt.state, tt.err)
		}
	}
	st := statusOf(t, m, "crash")
	if d := cmp.Diff([]string{"starting the test server", "fatal: cannot open the database: permission denied"}, st.Stderr); d != "" {
		t.Errorf("crash stderr tail (-want +got):\n%s", d)
	}
	if n := len(reg.Names()); n != 0 {
		t.Errorf("failed servers registered %v", reg.Names())
	}
}

func TestCallTimeout(t *testing.T) {
	sv := testServer(t, "t", "ok", nil)
	sv.ToolTimeoutSec = 0.2
	_, reg := start(t, Options{}, sv)
	res := run(t, reg, "mcp__t__slow", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "did not answer within 200ms") {
		t.Errorf("got %+v, want a tool error saying the call timed out", res)
	}
	// The server is still usable after a timed-out call.
	if res := run(t, reg, "mcp__t__echo", `{"text":"x"}`); res.Output != "echo: x" {
		t.Errorf("echo after a timeout: %+v", res)
	}
}

func TestOutputIsCapped(t *testing.T) {
	_, reg := start(t, Options{MaxOutput: 100}, testServer(t, "t", "ok", nil))
	res := run(t, reg, "mcp__t__echo", `{"text":"`+strings.Repeat("a", 5000)+`"}`)
	if len(res.Output) > 100+tool.OutputNoteSlack || !strings.Contains(res.Output, "bytes truncated") {
		t.Errorf("output of %d bytes, want it cut to 100 with a note", len(res.Output))
	}
}

// TestHTTPServers runs the Go test server over streamable HTTP and SSE on
// loopback, with a header whose value comes from the environment.
func TestHTTPServers(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.NewServer() }, nil)
	sseHandler := sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return mcptest.NewServer() }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/sse") {
			sseHandler.ServeHTTP(w, r)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	headers := map[string]string{"Authorization": "Bearer ${SYNAPS_TEST_SECRET}"}
	m, reg := start(t, Options{},
		Server{Name: "h", Type: TransportHTTP, URL: srv.URL + "/mcp", Headers: headers},
		Server{Name: "s", Type: TransportSSE, URL: srv.URL + "/sse", Headers: headers},
	)
	for _, name := range []string{"h", "s"} {
		if st := statusOf(t, m, name); st.State != StateReady {
			t.Fatalf("%s: %s %s", name, st.State, st.Err)
		}
		if res := run(t, reg, "mcp__"+name+"__echo", `{"text":"over http"}`); res.Output != "echo: over http" {
			t.Errorf("%s echo: %+v", name, res)
		}
		// tools/list_changed arrives on the server's stream.
		run(t, reg, "mcp__"+name+"__add_tool", `{}`)
		eventually(t, "mcp__"+name+"__late is registered", func() bool { _, _, ok := reg.Lookup("mcp__" + name + "__late"); return ok })
	}
	m.Close()
	mu.Lock()
	defer mu.Unlock()
	for _, a := range auth {
		if a != "Bearer s3cret" {
			t.Fatalf("a request came with Authorization %q, want the configured header", a)
		}
	}
}

// Timeouts: a server's own fields win, then MCP_TIMEOUT/MCP_TOOL_TIMEOUT
// (milliseconds, as Claude Code reads them), then Options (synaps's
// config), then 30 s and 120 s.
func TestTimeouts(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		opts        Options
		server      Server
		start, call time.Duration
	}{
		{"defaults", nil, Options{}, Server{}, 30 * time.Second, 120 * time.Second},
		{"config", nil, Options{StartTimeout: time.Minute, CallTimeout: 5 * time.Minute}, Server{}, time.Minute, 5 * time.Minute},
		{"env over config", map[string]string{"MCP_TIMEOUT": "2000", "MCP_TOOL_TIMEOUT": "3000"}, Options{StartTimeout: time.Minute}, Server{}, 2 * time.Second, 3 * time.Second},
		{"a bad env value is ignored", map[string]string{"MCP_TIMEOUT": "soon"}, Options{}, Server{}, 30 * time.Second, 120 * time.Second},
		{"the server's own", map[string]string{"MCP_TIMEOUT": "2000"}, Options{}, Server{StartupTimeoutSec: 0.5, ToolTimeoutSec: 600}, 500 * time.Millisecond, 10 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Getenv = func(k string) string { return tt.env[k] }
			m := NewManager(tt.opts)
			defer m.Close()
			s := &server{m: m, cfg: tt.server}
			if got := [2]time.Duration{s.startTimeout(), s.callTimeout()}; got != [2]time.Duration{tt.start, tt.call} {
				t.Errorf("start, call = %v, want %v, %v", got, tt.start, tt.call)
			}
		})
	}
}

// A server that exits mid-session is failed, with its stderr; its tools
// leave the registry and a call still held says why.
func TestServerEndsMidSession(t *testing.T) {
	var mu sync.Mutex
	var seen []State
	m, reg := start(t, Options{OnChange: func(st Status) {
		mu.Lock()
		seen = append(seen, st.State)
		mu.Unlock()
	}}, testServer(t, "t", "ok", nil))
	echo, _, _ := reg.Lookup("mcp__t__echo")
	if res := run(t, reg, "mcp__t__exit", `{}`); !res.IsError {
		t.Errorf("exit: %+v, want a tool error (the connection closed)", res)
	}
	eventually(t, "the server is failed", func() bool { return statusOf(t, m, "t").State == StateFailed })
	st := statusOf(t, m, "t")
	if !strings.Contains(st.Err, "the server ended during the session") || !slicesContains(st.Stderr, "exit tool called: going away") {
		t.Errorf("status %+v: want the end said, with the stderr", st)
	}
	if n := len(reg.Names()); n != 0 {
		t.Errorf("tools still registered: %v", reg.Names())
	}
	res, err := echo.Run(context.Background(), json.RawMessage(`{"text":"x"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Output, "MCP server t is failed: the server ended") {
		t.Errorf("a held tool after the end: %+v %v", res, err)
	}
	// OnChange is called after the tools leave the registry and the
	// process is reaped: wait for it, then it must be the last heard.
	lastHeard := func() State {
		mu.Lock()
		defer mu.Unlock()
		return seen[len(seen)-1]
	}
	eventually(t, "OnChange hears failed", func() bool { return lastHeard() == StateFailed })
	mu.Lock()
	defer mu.Unlock()
	if seen[len(seen)-1] != StateFailed {
		t.Errorf("OnChange heard %v, want failed last", seen)
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Options.Hold keeps a server from starting until it is closed (the
// terminal UI's first frame); its tools come once it is.
func TestHoldKeepsServersBack(t *testing.T) {
	hold := make(chan struct{})
	reg := tool.NewRegistry()
	m := NewManager(Options{Registry: reg, Getenv: fakeEnv, Hold: hold})
	t.Cleanup(func() { m.Close() })
	m.Start(&Config{Servers: []Server{testServer(t, "t", "ok", nil)}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := m.Wait(ctx); err == nil {
		t.Fatalf("the server started while the hold was on: %+v", statusOf(t, m, "t"))
	}
	if st := statusOf(t, m, "t"); st.State != StateStarting || len(reg.Names()) != 0 {
		t.Fatalf("while held: state %s, tools %v; want starting, none", st.State, reg.Names())
	}
	close(hold)
	wctx, wcancel := context.WithTimeout(context.Background(), waitFor)
	defer wcancel()
	if err := m.Wait(wctx); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, m, "t"); st.State != StateReady {
		t.Fatalf("after the hold: state %s (%s), want ready", st.State, st.Err)
	}
}

// A manager closed while the hold is on starts nothing.
func TestHoldCloseStartsNothing(t *testing.T) {
	hold := make(chan struct{})
	m := NewManager(Options{Registry: tool.NewRegistry(), Getenv: fakeEnv, Hold: hold})
	m.Start(&Config{Servers: []Server{testServer(t, "t", "ok", nil)}})
	m.Close()
	close(hold)
	if st := statusOf(t, m, "t"); st.State != StateClosed {
		t.Fatalf("state %s (%s), want closed", st.State, st.Err)
	}
}
