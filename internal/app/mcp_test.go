package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
	"github.com/synaps-cli/synaps/internal/permission"
)

// toolModel is a loopback Anthropic endpoint that answers request i with
// a call of calls[i] (name and JSON input), then with text, and keeps
// every request body.
type toolModel struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

type call struct{ name, input string }

func newToolModel(t *testing.T, calls ...call) *toolModel {
	m := &toolModel{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		i := len(m.bodies)
		m.bodies = append(m.bodies, body)
		m.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":1,"output_tokens":1}}}`)
		if i < len(calls) {
			c := calls[i]
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"call_%d","name":%q,"input":{}}}`, i, c.name))
			in, _ := json.Marshal(c.input)
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%s}}`, in))
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":1}}`)
		} else {
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"done"}}`)
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`)
		}
		ev("message_stop", `{"type":"message_stop"}`)
	}))
	t.Cleanup(m.Close)
	return m
}

// results are the tool_result blocks of the last request, as sent.
func (m *toolModel) results(t *testing.T) []json.RawMessage {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	var req struct {
		Messages []struct {
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(m.bodies[len(m.bodies)-1], &req); err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, msg := range req.Messages {
		for _, b := range msg.Content {
			if strings.Contains(string(b), `"type":"tool_result"`) {
				out = append(out, b)
			}
		}
	}
	return out
}

type toolResult struct {
	IsError bool `json:"is_error"`
	Content any  `json:"content"`
}

func decodeResult(t *testing.T, raw json.RawMessage) toolResult {
	t.Helper()
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMCPEverythingInASession runs the reference server in a real
// session, over stdio and over streamable HTTP: the model's calls reach it
// through the hook chain, its image reaches the model as an image block, a
// guard blocks echo by its Claude name, an unknown tool is a tool error,
// the secret in synaps's environment does not reach a stdio server, and
// ending the session stops the server's process.
func TestMCPEverythingInASession(t *testing.T) {
	bin := mcptest.Everything(t)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) { everythingSession(t, bin, transport) })
	}
}

func everythingSession(t *testing.T, bin, transport string) {
	base, work := t.TempDir(), t.TempDir()
	entry := `{"command":"` + bin + `","args":["stdio"]}`
	if transport == "http" {
		entry = `{"type":"http","url":"` + mcptest.EverythingHTTP(t, bin) + `"}`
	}
	write(t, filepath.Join(base, "mcp.json"), `{"mcpServers":{"everything":`+entry+`}}`)
	exttest.Plugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call", "tool": "mcp__everything__echo"}},
	}, exttest.Spec{Results: map[string]json.RawMessage{"hook:before_tool_call": json.RawMessage(`{"action":"block","reason":"echo is not allowed"}`)}})
	model := newToolModel(t,
		call{"mcp__everything__get-tiny-image", `{}`},
		call{"mcp__everything__echo", `{"message":"hi"}`},
		call{"mcp__everything__get-sum", `{"a":2,"b":40}`},
		call{"mcp__everything__get-env", `{}`},
		call{"mcp__everything__no-such-tool", `{}`},
	)
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": model.URL, "PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "SYNAPS_TEST_SECRET": "s3cret-value"}
	// A headless session cannot ask: a rule allows the server's tools
	// (--allowedTools mcp__everything), as Claude's rules decide each
	// mcp__ call; the guard still has its say.
	allow, err := permission.ParseRules("mcp__everything")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "anthropic/claude-test", Getenv: func(k string) string { return env[k] }, Version: "test", Allowed: allow})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	if err := a.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := a.MCPStatuses()
	if len(st) != 1 || st[0].State != mcp.StateReady {
		t.Fatalf("statuses %+v", st)
	}
	if err := a.Agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	res := model.results(t)
	if len(res) != 5 {
		t.Fatalf("%d tool results, want 5", len(res))
	}
	// The image: a list of blocks, one of them an image block.
	var img struct {
		Content []struct {
			Type   string `json:"type"`
			Source struct {
				Type, MediaType, Data string
			} `json:"source"`
		} `json:"content"`
	}
	if err := json.Unmarshal(res[0], &img); err != nil {
		t.Fatalf("get-tiny-image result %s: %v", res[0], err)
	}
	var types []string
	for _, c := range img.Content {
		types = append(types, c.Type)
		if c.Type == "image" && (c.Source.Type != "base64" || c.Source.Data == "") {
			t.Errorf("image block %+v", c)
		}
	}
	if !strings.Contains(strings.Join(types, ","), "image") {
		t.Errorf("get-tiny-image reached the model as %s, want an image block", res[0])
	}
	if r := decodeResult(t, res[1]); !r.IsError || !strings.Contains(fmt.Sprint(r.Content), "echo is not allowed") {
		t.Errorf("echo was not blocked by the guard: %s", res[1])
	}
	if r := decodeResult(t, res[2]); r.IsError || !strings.Contains(fmt.Sprint(r.Content), "42") {
		t.Errorf("get-sum: %s", res[2])
	}
	if r := decodeResult(t, res[3]); transport == "stdio" && (r.IsError || strings.Contains(fmt.Sprint(r.Content), "s3cret-value") || !strings.Contains(fmt.Sprint(r.Content), "PATH")) {
		t.Errorf("get-env shows synaps's secret (or no PATH): %s", res[3])
	}
	if r := decodeResult(t, res[4]); !r.IsError || !strings.Contains(fmt.Sprint(r.Content), "unknown tool") {
		t.Errorf("an unknown tool: %s, want a tool error", res[4])
	}
	// Ending the session stops the server: its process is gone after
	// Close, whose every stop step is 1 s, not the SDK's 5 s.
	if d := a.MCP.TerminateDuration(); d != mcp.DefaultTerminateDuration || d > 1e9 {
		t.Errorf("TerminateDuration %s", d)
	}
	if _, _, ok := a.Tools.Lookup("mcp__everything__get-roots-list"); !ok {
		// Added by the server once it knows synaps offers roots, and
		// announced with tools/list_changed.
		t.Errorf("get-roots-list is not registered: %v", a.Tools.Names())
	}
	if transport != "stdio" {
		return
	}
	pids := childPids(t, bin)
	if len(pids) == 0 {
		t.Fatal("no server process found")
	}
	a.Close(context.Background())
	for _, pid := range pids {
		// Gone from /proc, where childPids found it: exited and reaped.
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("server process %d still there after Close (%v)", pid, err)
		}
	}
}

// childPids are this process's children whose command line holds marker.
func childPids(t *testing.T, marker string) []int {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), marker) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		var state string
		var ppid int
		fmt.Sscan(string(stat[i+1:]), &state, &ppid)
		if state == "Z" || ppid != os.Getpid() {
			continue // a zombie is gone already; another test's is not ours
		}
		out = append(out, pid)
	}
	return out
}

// TestMCPServe drives `synaps mcp serve` (App.ServeMCP) with the go-sdk
// client: it lists an extension's tool beside the built-ins, calls it,
// and a guard blocks a call by input.
func TestMCPServe(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	exttest.Plugin(t, base, "greeter", map[string]any{"permissions": []string{"tools.register"}},
		exttest.Spec{
			Init:    json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"greet","description":"Greets.","input_schema":{"type":"object","properties":{"who":{"type":"string"}}}}]}}`),
			Results: map[string]json.RawMessage{"tool:greet": json.RawMessage(`{"output":"hello from the extension"}`)},
		})
	exttest.Plugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call"}},
	}, exttest.Spec{Rules: []exttest.Rule{{Hook: "before_tool_call", InputContains: "mallory", Result: json.RawMessage(`{"action":"block","reason":"not mallory"}`)}}})
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, Version: "test", NoModelOK: true, NoMCP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, leave := serveMCP(t, ctx, a)
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"greeter_greet", "bash", "read"} {
		if !contains(tools, want) {
			t.Errorf("tools %v lack %s", tools, want)
		}
	}
	// Without a model the agent tool could only fail: it is not offered.
	if contains(tools, "agent") {
		t.Errorf("tools %v offer agent, with no model to run it on", tools)
	}
	// Each tool's own marking is its readOnlyHint: a client runs the
	// read-only ones without asking.
	readOnly, err := c.ReadOnly(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"read", "ls"} {
		if !contains(readOnly, name) {
			t.Errorf("read-only tools %v lack %s", readOnly, name)
		}
	}
	for _, name := range []string{"bash", "write", "greeter_greet"} {
		if contains(readOnly, name) {
			t.Errorf("read-only tools %v hold %s, which may change things", readOnly, name)
		}
	}
	tests := []struct {
		tool, input string
		out         string
		isErr       bool
	}{
		{"greeter_greet", `{"who":"bob"}`, "hello from the extension", false},
		{"greeter_greet", `{"who":"mallory"}`, "not mallory", true},
		{"bash", `{"command":"echo mallory"}`, "not mallory", true},
		{"bash", `{"command":"echo bob"}`, "bob", false},
	}
	for _, tt := range tests {
		out, isErr, err := c.Call(ctx, tt.tool, json.RawMessage(tt.input))
		if err != nil {
			t.Fatal(err)
		}
		if isErr != tt.isErr || !strings.Contains(out, tt.out) {
			t.Errorf("%s %s = %q (error %v); want %q (error %v)", tt.tool, tt.input, out, isErr, tt.out, tt.isErr)
		}
	}
	if err := leave(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("ServeMCP: %v", err)
	}
}

// With a model, synaps mcp serve offers the agent tool, and it runs a
// subagent on that model.
func TestMCPServeAgentWithAModel(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(work, "turns.jsonl"), `{"text":"the child's answer"}`+"\n")
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, Version: "test", Model: "script:turns.jsonl", NoMCP: true, NoExtensions: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, leave := serveMCP(t, ctx, a)
	defer leave()
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !contains(tools, "agent") {
		t.Fatalf("tools %v lack agent, with a model to run it on", tools)
	}
	// The agent tool is read-only in a session (each call its child makes
	// is judged there), but here nobody is asked about those calls: the
	// client must ask before it starts one.
	readOnly, err := c.ReadOnly(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if contains(readOnly, "agent") || !contains(readOnly, "read") {
		t.Errorf("read-only tools %v: want read, not agent", readOnly)
	}
	out, isErr, err := c.Call(ctx, "agent", json.RawMessage(`{"description":"answer","prompt":"say something"}`))
	if err != nil || isErr || !strings.Contains(out, "the child's answer") {
		t.Errorf("agent = %q (error %v, %v); want the child's answer", out, isErr, err)
	}
}

// serveMCP serves a's tools over pipes to an MCP test client; leave
// closes the client's side and returns what ServeMCP returned.
func serveMCP(t *testing.T, ctx context.Context, a *App) (*mcptest.Client, func() error) {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- a.ServeMCP(ctx, toServer, fromServer) }()
	c, err := mcptest.Connect(ctx, toClient, fromClient)
	if err != nil {
		t.Fatal(err)
	}
	return c, func() error {
		c.Close()
		fromClient.Close()
		return <-served
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// /mcp shows each server's state, file and tools, and a failed one's
// stderr; a server's tools are in the session's registry.
func TestSlashMCP(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(base, "mcp.json"), `{"mcpServers":{
"t":{"command":"`+exe+`","env":{"`+mcptest.Env+`":"ok"}},
"broken":{"command":"sh","args":["-c","echo no database >&2; exit 1"]}}}`)
	env := map[string]string{"PATH": os.Getenv("PATH")}
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: func(k string) string { return env[k] }, NoModelOK: true, NoExtensions: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	if err := a.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := a.Slash(context.Background(), "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"broken (failed) · stdio sh -c echo no database >&2; exit 1 · " + filepath.Join(base, "mcp.json") + ":3",
		"  stderr: no database",
		"t (ready, 8 tools) · stdio " + exe + " · " + filepath.Join(base, "mcp.json") + ":2",
		"  tools: mcp__t__add_tool, mcp__t__echo, ",
	} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("/mcp lacks %q:\n%s", want, res.Output)
		}
	}
	if _, _, ok := a.Tools.Lookup("mcp__t__echo"); !ok {
		t.Errorf("mcp__t__echo is not in the session's registry: %v", a.Tools.Names())
	}
}

// A plugin's .mcp.json adds its servers, with ${CLAUDE_PLUGIN_ROOT} its
// directory; a disabled plugin's do not start.
func TestPluginMCPServers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base, work := t.TempDir(), t.TempDir()
	for _, id := range []string{"withmcp", "off"} {
		dir := exttest.Plugin(t, base, id, nil, exttest.Spec{})
		write(t, filepath.Join(dir, ".mcp.json"), `{"srv-`+id+`":{"command":"`+exe+`","env":{"`+mcptest.Env+`":"ok","ROOT":"${CLAUDE_PLUGIN_ROOT}"}}}`)
	}
	write(t, filepath.Join(base, "config"), "disabled_plugins = off\n")
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, NoModelOK: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	a.WaitMCP(context.Background())
	var names []string
	for _, st := range a.MCPStatuses() {
		names = append(names, st.Name+" "+string(st.State)+" "+st.Source.Kind)
	}
	if d := cmp.Diff([]string{"srv-withmcp ready plugin withmcp"}, names); d != "" {
		t.Fatalf("servers (-want +got):\n%s", d)
	}
	tl, _, ok := a.Tools.Lookup("mcp__srv-withmcp__env")
	if !ok {
		t.Fatalf("no env tool: %v", a.Tools.Names())
	}
	res, err := tl.Run(context.Background(), json.RawMessage(`{"name":"ROOT"}`))
	if err != nil || res.Output != filepath.Join(base, "plugins", "withmcp") {
		t.Errorf("ROOT = %q (%v), want the plugin's directory", res.Output, err)
	}
}
