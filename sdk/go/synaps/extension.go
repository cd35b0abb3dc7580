package synaps

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// ToolHandler runs a tool call. The returned string is what the model
// sees; an error is reported to the model as a failed call.
type ToolHandler func(ctx context.Context, input json.RawMessage) (string, error)

// Typed adapts a handler that takes a decoded input struct.
func Typed[In any](fn func(ctx context.Context, in In) (string, error)) ToolHandler {
	return func(ctx context.Context, raw json.RawMessage) (string, error) {
		var in In
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &in); err != nil {
				return "", fmt.Errorf("invalid input: %v", err)
			}
		}
		return fn(ctx, in)
	}
}

// ReportDiff tells synaps what the running tool call changed in a file,
// so the user sees it as a diff under the call, as the built-in edit
// shows its changes. The model still gets only the handler's output: a
// diff costs no tokens. before is the file's text before the call, nil
// for a file the call created; after is its text now. Call it from a
// ToolHandler with the ctx it was given (once per call: the last one
// counts); anywhere else it does nothing.
func ReportDiff(ctx context.Context, path string, before *string, after string) {
	if slot, ok := ctx.Value(diffKey{}).(**fileDiff); ok {
		*slot = &fileDiff{Path: path, Before: before, After: after}
	}
}

// fileDiff is the "diff" of a tool result (docs/extensions/protocol.md).
type fileDiff struct {
	Path   string  `json:"path"`
	Before *string `json:"before"`
	After  string  `json:"after"`
}

// diffKey holds a call's **fileDiff in its context.
type diffKey struct{}

// HookHandler answers one hook event.
type HookHandler func(ctx context.Context, ev *Event) Result

type toolEntry struct {
	decl    map[string]any
	handler ToolHandler
}

// Extension is one extension program. Register tools and hooks, then Run.
type Extension struct {
	name, version string
	tools         map[string]toolEntry
	toolOrder     []string
	hooks         map[string]HookHandler
	hookOrder     []string
	hookTools     map[string]string
	onInit        func(config map[string]any) error

	writeMu sync.Mutex
	w       io.Writer
}

// New starts an extension description.
func New(name, version string) *Extension {
	return &Extension{name: name, version: version, tools: map[string]toolEntry{}, hooks: map[string]HookHandler{}, hookTools: map[string]string{}}
}

// Tool registers a tool. schema is its JSON Schema (a map, a struct or
// json.RawMessage); nil means {"type":"object"}.
func (e *Extension) Tool(name, description string, schema any, h ToolHandler, opts ...ToolOption) {
	if schema == nil {
		schema = map[string]any{"type": "object"}
	}
	if _, dup := e.tools[name]; !dup {
		e.toolOrder = append(e.toolOrder, name)
	}
	decl := map[string]any{"name": name, "description": description, "input_schema": schema}
	for _, o := range opts {
		o(decl)
	}
	e.tools[name] = toolEntry{decl, h}
}

// ToolOption refines a tool's declaration.
type ToolOption func(decl map[string]any)

// Idempotent declares that running the tool twice with the same input
// does no more than running it once. synaps then sends a call again when
// the extension crashed while running it; without it, such a call is
// reported to the model as not retried, so side effects never happen
// twice.
func Idempotent() ToolOption { return func(d map[string]any) { d["idempotent"] = true } }

// ReadOnly declares that the tool changes nothing (a lookup, a search).
// synaps's default permission mode then runs it without asking, plan mode
// runs it, and calls of it in one model turn may run side by side.
// Without it the tool may change things: it is asked about first.
func ReadOnly() ToolOption { return func(d map[string]any) { d["read_only"] = true } }

// HookOption refines a subscription.
type HookOption func(*hookConfig)

type hookConfig struct{ tool string }

// ForTool limits a tool hook (before_tool_call, after_tool_call) to one
// tool, by its model-facing or runtime name; synaps then sends no other
// tool's calls.
func ForTool(name string) HookOption { return func(c *hookConfig) { c.tool = name } }

// Hook subscribes to a hook. The manifest must grant its permission. When
// the manifest subscribes to the hook itself (extension.hooks, with its
// tool and match filters), the manifest is the one source of truth: h
// handles those events and initialize declares nothing more for it.
func (e *Extension) Hook(hook string, h HookHandler, opts ...HookOption) {
	var c hookConfig
	for _, o := range opts {
		o(&c)
	}
	if _, dup := e.hooks[hook]; !dup {
		e.hookOrder = append(e.hookOrder, hook)
	}
	e.hooks[hook] = h
	e.hookTools[hook] = c.tool
}

// OnInit receives the resolved config at initialize (and after every
// restart). An error fails the handshake and is shown to the user.
func (e *Extension) OnInit(fn func(config map[string]any) error) { e.onInit = fn }

// Logf writes a line to stderr, which synaps records in the extension's
// log.
func (e *Extension) Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// Run serves stdin and stdout until shutdown or end of input.
func (e *Extension) Run() error { return e.Serve(context.Background(), os.Stdin, os.Stdout) }

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Serve answers requests read from r on w. Each request runs in its own
// goroutine; Serve waits for them before it returns.
func (e *Extension) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	e.w = w
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	br := bufio.NewReaderSize(r, 64<<10)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		body, err := readFrame(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if isHookCall(body) {
			// The hot path: the envelope and the event in one decode.
			var hr hookRequest
			if json.Unmarshal(body, &hr) == nil && hr.Method == "hook.handle" {
				res := e.hook(ctx, &hr.Params)
				if len(hr.ID) > 0 && string(hr.ID) != "null" {
					e.reply(hr.ID, res, nil)
				}
				continue
			}
		}
		var req request
		if json.Unmarshal(body, &req) != nil {
			e.Logf("synaps sdk: skipping a frame that is not JSON")
			continue
		}
		if req.Method == "shutdown" {
			wg.Wait()
			e.reply(req.ID, struct{}{}, nil)
			return nil
		}
		if req.Method == "initialize" {
			// Answered in order: nothing else can come before it.
			res, err := e.initialize(req.Params)
			e.reply(req.ID, res, err)
			continue
		}
		serve := func() {
			res, err := e.handle(ctx, req.Method, req.Params)
			if len(req.ID) > 0 && string(req.ID) != "null" {
				e.reply(req.ID, res, err)
			}
		}
		if req.Method == "hook.handle" {
			// Hooks sit on the agent's hot path and should be quick:
			// answered in the read loop, without a goroutine handoff.
			serve()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			serve()
		}()
	}
}

func (e *Extension) initialize(params json.RawMessage) (any, error) {
	var p struct {
		Config     map[string]any `json:"config"`
		PluginRoot string         `json:"plugin_root"`
	}
	_ = json.Unmarshal(params, &p)
	inManifest := manifestHooks(p.PluginRoot)
	if e.onInit != nil {
		if err := e.onInit(p.Config); err != nil {
			return nil, err
		}
	}
	tools := make([]map[string]any, 0, len(e.toolOrder))
	for _, n := range e.toolOrder {
		tools = append(tools, e.tools[n].decl)
	}
	hooks := make([]map[string]string, 0, len(e.hookOrder))
	for _, h := range e.hookOrder {
		if inManifest[h] {
			// The manifest's subscription, with its filter, is the one
			// source of truth; declaring the hook again would widen it.
			if t := e.hookTools[h]; t != "" {
				e.Logf("synaps sdk: Hook(%q, ForTool(%q)): the manifest subscribes to %s, so its filter applies and ForTool is ignored", h, t, h)
			}
			continue
		}
		sub := map[string]string{"name": h}
		if t := e.hookTools[h]; t != "" {
			sub["tool"] = t
		}
		hooks = append(hooks, sub)
	}
	return map[string]any{
		"name": e.name, "version": e.version, "protocol_version": 1,
		"capabilities": map[string]any{"tools": tools, "hooks": hooks},
	}, nil
}

func (e *Extension) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "tool.call":
		var p struct {
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		t, ok := e.tools[p.Name]
		if !ok {
			return map[string]any{"output": "unknown tool " + p.Name, "is_error": true}, nil
		}
		var diff *fileDiff
		out, err := t.handler(context.WithValue(ctx, diffKey{}, &diff), p.Input)
		res := map[string]any{"output": out}
		if err != nil {
			res = map[string]any{"output": err.Error(), "is_error": true}
		}
		if diff != nil {
			res["diff"] = diff
		}
		return res, nil
	case "hook.handle":
		var ev Event
		if err := json.Unmarshal(params, &ev); err != nil {
			return nil, err
		}
		return e.hook(ctx, &ev), nil
	default:
		return struct{}{}, nil // tolerate unknown methods
	}
}

// hook answers one event with its handler, or continues.
func (e *Extension) hook(ctx context.Context, ev *Event) Result {
	h, ok := e.hooks[ev.Kind]
	if !ok {
		return Continue()
	}
	return h(ctx, ev)
}

// hookRequest is a hook.handle request decoded in one pass.
type hookRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params Event           `json:"params"`
}

// hookMethod is how synaps writes a hook call's method, ahead of its
// params.
var hookMethod = []byte(`"method":"hook.handle"`)

// isHookCall says whether body looks like a hook.handle request, from its
// first bytes only (synaps writes the method before the params), so that a
// tool input quoting the method cannot make it look so. A false guess
// costs a second decode, never a wrong answer: the decoded method is
// checked.
func isHookCall(body []byte) bool {
	return bytes.Contains(body[:min(len(body), 64)], hookMethod)
}

// response is a JSON-RPC response; exactly one of Result and Error is set.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *Extension) reply(id json.RawMessage, result any, err error) {
	msg := response{JSONRPC: "2.0", ID: id, Result: result}
	if err != nil {
		msg.Result, msg.Error = nil, &rpcError{-32603, err.Error()}
	} else if result == nil {
		msg.Result = json.RawMessage("null") // a result, even if null
	}
	body, mErr := json.Marshal(msg)
	if mErr != nil {
		body, _ = json.Marshal(response{JSONRPC: "2.0", ID: id, Error: &rpcError{-32603, mErr.Error()}})
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	_, _ = e.w.Write(frame(body))
}

// manifestHooks returns the hooks the plugin's manifest subscribes to
// (extension.hooks), read from the plugin root synaps passes in
// initialize; nil when there is none or it cannot be read.
func manifestHooks(root string) map[string]bool {
	if root == "" {
		root = os.Getenv("SYNAPS_PLUGIN_ROOT")
	}
	if root == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(root, ".synaps-plugin", "plugin.json"))
	if err != nil {
		return nil
	}
	var m struct {
		Extension struct {
			Hooks []json.RawMessage `json:"hooks"`
		} `json:"extension"`
	}
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, raw := range m.Extension.Hooks {
		var name string
		if json.Unmarshal(raw, &name) != nil {
			var sub struct{ Hook, Name string }
			_ = json.Unmarshal(raw, &sub)
			name = sub.Hook
			if name == "" {
				name = sub.Name
			}
		}
		if name != "" {
			out[name] = true
		}
	}
	return out
}
