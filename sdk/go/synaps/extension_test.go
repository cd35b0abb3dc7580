package synaps

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// peer drives an extension over in-memory pipes, as synaps would.
type peer struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func start(t *testing.T, e *Extension) *peer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &peer{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		p.done <- e.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *peer) call(t *testing.T, id int, method string, params any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := p.in.Write(frame(body)); err != nil {
		t.Fatal(err)
	}
	raw, err := readFrame(p.out)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m["id"] != float64(id) {
		t.Fatalf("reply id %v, want %d", m["id"], id)
	}
	return m
}

func TestExtensionServesTheProtocol(t *testing.T) {
	ext := New("demo", "1.0.0")
	type hello struct {
		Name string `json:"name"`
	}
	ext.Tool("hello", "Greet someone", map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		Typed(func(_ context.Context, in hello) (string, error) { return "Hello, " + in.Name + "!", nil }))
	ext.Hook(AfterToolCall, func(context.Context, *Event) Result { return Continue() }, ForTool("bash"))
	ext.Hook(BeforeToolCall, func(_ context.Context, ev *Event) Result {
		var in struct{ Command string }
		ev.Input(&in)
		if strings.Contains(in.Command, "rm -rf") {
			return Block("no")
		}
		return Continue()
	})
	var gotConfig map[string]any
	ext.OnInit(func(cfg map[string]any) error { gotConfig = cfg; return nil })
	p := start(t, ext)

	init := p.call(t, 1, "initialize", map[string]any{"config": map[string]any{"k": "v"}})
	wantCaps := map[string]any{
		"tools": []any{map[string]any{"name": "hello", "description": "Greet someone",
			"input_schema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}},
		"hooks": []any{map[string]any{"name": "after_tool_call", "tool": "bash"}, map[string]any{"name": "before_tool_call"}},
	}
	res := init["result"].(map[string]any)
	if d := cmp.Diff(wantCaps, res["capabilities"]); d != "" || res["protocol_version"] != float64(1) {
		t.Errorf("initialize (-want +got):\n%s", d)
	}
	if gotConfig["k"] != "v" {
		t.Errorf("config = %v", gotConfig)
	}
	if r := p.call(t, 2, "tool.call", map[string]any{"name": "hello", "input": map[string]any{"name": "Ada"}}); r["result"].(map[string]any)["output"] != "Hello, Ada!" {
		t.Errorf("tool.call = %v", r)
	}
	if r := p.call(t, 3, "hook.handle", map[string]any{"kind": "before_tool_call", "tool_name": "bash", "tool_input": map[string]any{"command": "rm -rf /"}}); r["result"].(map[string]any)["action"] != "block" {
		t.Errorf("hook = %v", r)
	}
	if r := p.call(t, 4, "hook.handle", map[string]any{"kind": "before_tool_call", "tool_name": "bash", "tool_input": map[string]any{"command": "ls"}}); r["result"].(map[string]any)["action"] != "continue" {
		t.Errorf("hook = %v", r)
	}
	if r := p.call(t, 5, "no.such.method", nil); r["result"] == nil {
		t.Errorf("unknown method = %v", r)
	}
	if r := p.call(t, 6, "tool.call", map[string]any{"name": "hello", "input": map[string]any{"name": 7}}); r["result"].(map[string]any)["is_error"] != true {
		t.Errorf("bad input = %v", r)
	}
	p.call(t, 7, "shutdown", nil)
	if err := <-p.done; err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// Idempotent() and ReadOnly() are declared in initialize; a tool without
// them declares nothing (synaps then never retries it after a crash, and
// asks before it runs).
func TestIdempotentIsDeclared(t *testing.T) {
	ext := New("t", "1.0.0")
	noop := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	ext.Tool("lookup", "reads", nil, noop, Idempotent(), ReadOnly())
	ext.Tool("send", "writes", nil, noop)
	p := start(t, ext)
	init := p.call(t, 1, "initialize", map[string]any{"config": map[string]any{}})
	got := init["result"].(map[string]any)["capabilities"].(map[string]any)["tools"]
	obj := map[string]any{"type": "object"}
	want := []any{
		map[string]any{"name": "lookup", "description": "reads", "input_schema": obj, "idempotent": true, "read_only": true},
		map[string]any{"name": "send", "description": "writes", "input_schema": obj},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("declared tools (-want +got):\n%s", d)
	}
}

func TestResults(t *testing.T) {
	b, _ := json.Marshal([]Result{Continue(), Block("r"), Confirm("m"), Modify(map[string]string{"command": "ls"}), Replace(""), Inject("c")})
	want := `[{"action":"continue"},{"action":"block","reason":"r"},{"action":"confirm","message":"m"},{"action":"modify","input":{"command":"ls"}},{"action":"replace","output":""},{"action":"inject","content":"c"}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// A manifest that subscribes to a hook with a tool filter keeps it: Hook
// only names the handler, and initialize does not declare the hook again
// (the merged, unfiltered subscription would send every tool's calls).
func TestManifestSubscriptionIsNotWidened(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".synaps-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"name":"g","extension":{"command":"./g","permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","tool":"bash"},"on_session_end"]}}`
	if err := os.WriteFile(filepath.Join(root, ".synaps-plugin", "plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	ext := New("g", "1.0.0")
	allow := func(context.Context, *Event) Result { return Continue() }
	ext.Hook(BeforeToolCall, allow)
	ext.Hook(AfterToolCall, allow, ForTool("bash"))
	p := start(t, ext)
	init := p.call(t, 1, "initialize", map[string]any{"config": map[string]any{}, "plugin_root": root})
	got := init["result"].(map[string]any)["capabilities"].(map[string]any)["hooks"]
	want := []any{map[string]any{"name": "after_tool_call", "tool": "bash"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("declared hooks (-want +got):\n%s", d)
	}
}

// A tool may report what it changed in a file; the result carries it as
// "diff" beside the output.
func TestReportDiff(t *testing.T) {
	ext := New("demo", "1.0.0")
	ext.Tool("save", "save", map[string]any{"type": "object"}, func(ctx context.Context, _ json.RawMessage) (string, error) {
		before := "a\nb\n"
		ReportDiff(ctx, "notes.txt", &before, "a\nc\n")
		return "saved notes.txt", nil
	})
	ext.Tool("create", "create", map[string]any{"type": "object"}, func(ctx context.Context, _ json.RawMessage) (string, error) {
		ReportDiff(ctx, "new.txt", nil, "x\n")
		return "created", nil
	})
	ext.Tool("plain", "plain", map[string]any{"type": "object"}, func(context.Context, json.RawMessage) (string, error) { return "ok", nil })
	ReportDiff(context.Background(), "ignored", nil, "") // outside a call: nothing
	p := start(t, ext)
	p.call(t, 1, "initialize", map[string]any{})
	for i, tc := range []struct {
		tool string
		want map[string]any
	}{
		{"save", map[string]any{"output": "saved notes.txt", "diff": map[string]any{"path": "notes.txt", "before": "a\nb\n", "after": "a\nc\n"}}},
		{"create", map[string]any{"output": "created", "diff": map[string]any{"path": "new.txt", "before": nil, "after": "x\n"}}},
		{"plain", map[string]any{"output": "ok"}},
	} {
		r := p.call(t, i+2, "tool.call", map[string]any{"name": tc.tool, "input": map[string]any{}})
		if d := cmp.Diff(tc.want, r["result"]); d != "" {
			t.Errorf("%s result (-want +got):\n%s", tc.tool, d)
		}
	}
}

// TestHookFastPathAgreesWithSlowPath: a hook.handle whose method comes
// first (as synaps writes it) is decoded in one pass, one whose method
// comes last in two; both answer the same. A tool.call whose input holds
// the hook method's text up front is still a tool call.
func TestHookFastPathAgreesWithSlowPath(t *testing.T) {
	ext := New("demo", "1.0.0")
	ext.Tool("hello", "Greet", map[string]any{"type": "object"}, func(_ context.Context, in json.RawMessage) (string, error) {
		return "input " + string(in), nil
	})
	ext.Hook(BeforeToolCall, func(_ context.Context, ev *Event) Result {
		var in struct{ Command string }
		ev.Input(&in)
		if strings.Contains(in.Command, "rm -rf") {
			return Block("no: " + ev.SessionID)
		}
		return Continue()
	})
	p := start(t, ext)
	raw := func(body string) map[string]any {
		t.Helper()
		if _, err := p.in.Write(frame([]byte(body))); err != nil {
			t.Fatal(err)
		}
		got, err := readFrame(p.out)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	event := `{"kind":"before_tool_call","tool_name":"bash","tool_input":{"command":"rm -rf /"},"session_id":"s1","context":{"tool_name":"bash"}}`
	fast := raw(`{"jsonrpc":"2.0","id":1,"method":"hook.handle","params":` + event + `}`)
	slow := raw(`{"jsonrpc":"2.0","id":1,"params":` + event + `,"method":"hook.handle"}`)
	if d := cmp.Diff(slow, fast); d != "" {
		t.Errorf("fast path (-slow +fast):\n%s", d)
	}
	if r, _ := fast["result"].(map[string]any); r["action"] != "block" || r["reason"] != "no: s1" {
		t.Errorf("hook answer = %v", fast)
	}
	tool := raw(`{"id":2,"params":{"input":{"method":"hook.handle"},"name":"hello"},"method":"tool.call","jsonrpc":"2.0"}`)
	if r, _ := tool["result"].(map[string]any); r["output"] != `input {"method":"hook.handle"}` {
		t.Errorf("tool call = %v", tool)
	}
	if _, ok := raw(`{"jsonrpc":"2.0","id":3,"method":"no.such.method"}`)["result"]; !ok {
		t.Errorf("a reply without a value has no result key")
	}
}

// TestReplyShapes: a reply carries exactly one of result and error, and a
// nil result is sent as null, not left out.
func TestReplyShapes(t *testing.T) {
	for _, tc := range []struct {
		result any
		err    error
		want   string
	}{
		{nil, nil, `{"jsonrpc":"2.0","id":1,"result":null}`},
		{Continue(), nil, `{"jsonrpc":"2.0","id":1,"result":{"action":"continue"}}`},
		{nil, errors.New("boom"), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`},
	} {
		var out strings.Builder
		e := New("x", "1")
		e.w = &out
		e.reply(json.RawMessage("1"), tc.result, tc.err)
		if got := out.String(); !strings.HasSuffix(got, "\r\n\r\n"+tc.want) {
			t.Errorf("reply(%v, %v) = %q, want body %s", tc.result, tc.err, got, tc.want)
		}
	}
}
