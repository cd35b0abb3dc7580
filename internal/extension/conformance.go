package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// This file is `synaps extensions test`: the authoring guide's step 8 as a
// product. It starts an extension with no model and no agent, speaks the
// protocol to it as synaps would, and reports each item of the guide's
// checklist as pass, warn or fail with the reason and the fix.

// Check statuses.
const (
	CheckPass = "pass"
	CheckWarn = "warn" // worth fixing; does not fail the run
	CheckFail = "fail"
	CheckSkip = "skip" // could not be checked because an earlier step failed
)

// Check is one line of a conformance report.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// Report is the result of testing one extension.
type Report struct {
	Dir    string  `json:"dir"`
	Passed bool    `json:"passed"`
	Checks []Check `json:"checks"`
	// Stderr is the extension's stderr during the test.
	Stderr []string `json:"stderr,omitempty"`
}

// ConformanceOptions tune a test run.
type ConformanceOptions struct {
	// Timeout is the wait for each answer. Default 5 s, and for
	// initialize (10 s) and shutdown (2 s) the runtime's own deadlines,
	// MethodDeadlines, so the test is exactly as patient as synaps.
	Timeout time.Duration
	// Calls are tool inputs to use instead of ones built from the schemas,
	// by tool name.
	Calls map[string]json.RawMessage
	// Getenv reads the environment for the child; nil: os.Getenv.
	Getenv func(string) string
	// Config values for initialize; nil: resolved as a session would.
	Config map[string]any
}

type checker struct {
	report *Report
}

func (c *checker) add(name, status, detail string) {
	c.report.Checks = append(c.report.Checks, Check{name, status, detail})
}

// Conformance tests the plugin in dir.
func Conformance(ctx context.Context, dir string, o ConformanceOptions) *Report {
	// initialize and shutdown wait as long as the runtime does (one
	// source: MethodDeadlines), unless --timeout says otherwise.
	initTimeout, shutdownTimeout := o.Timeout, o.Timeout
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
		initTimeout = contract.MethodDeadlines[contract.MethodInitialize]
		shutdownTimeout = contract.MethodDeadlines[contract.MethodShutdown]
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	abs, _ := filepath.Abs(dir)
	r := &Report{Dir: abs}
	c := &checker{report: r}
	defer func() {
		r.Passed = true
		for _, ch := range r.Checks {
			if ch.Status == CheckFail {
				r.Passed = false
			}
		}
	}()

	// 1. The manifest.
	p := plugin.LoadPlugin(filepath.Base(abs), abs, plugin.ScopeUser)
	if p.Err != nil {
		c.add("plugin.json present at .synaps-plugin/plugin.json and valid", CheckFail, p.Err.Error())
		return r
	}
	c.add("plugin.json present at .synaps-plugin/plugin.json and valid", CheckPass, "")
	m := p.Manifest.Extension
	if m == nil {
		c.add("manifest has an \"extension\" object", CheckFail, `nothing to start: add "extension": {"entry_point": "python3 main.py", "extension_protocol_version": 1, "permissions": [...]}`)
		return r
	}
	status, detail := protocolCheck(p.Manifest.File)
	c.add("extension_protocol_version: 1 set", status, detail)

	// 2. Start it and shake hands.
	var mu sync.Mutex
	var stderr []string
	var lfFraming, noise []string
	var unknownAnswer string // how the extension answered the unknown-method probe; "" for not at all
	if err := CheckLaunch(p, o.Getenv); err != nil {
		c.add("extension starts", CheckFail, err.Error())
		return r
	}
	env := childEnv(o.Getenv, p, filepath.Join(os.TempDir(), "synaps-extension-test"))
	argv, _, err := m.Argv(envLookup(env))
	if err != nil {
		c.add("extension starts", CheckFail, err.Error())
		return r
	}
	proc, err := spawn(spawnSpec{
		argv: argv, dir: abs, env: env,
		stderr: func(l string) { mu.Lock(); stderr = append(stderr, l); mu.Unlock() },
		connOpt: jsonrpc.Options{OnNoise: func(kind, detail string) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case kind == "lf-framing":
				lfFraming = append(lfFraming, detail)
			case kind == "unknown-id" && strings.HasPrefix(detail, unknownProbeNoise):
				// The answer to the unknown-method probe: expected, not noise.
				unknownAnswer = strings.TrimPrefix(strings.TrimPrefix(detail, unknownProbeNoise), ": ")
				if unknownAnswer == "" {
					unknownAnswer = "a result"
				}
			default:
				noise = append(noise, kind+": "+detail)
			}
		}},
	})
	if err != nil {
		c.add("extension starts", CheckFail, err.Error())
		return r
	}
	stopped := false
	defer func() {
		if !stopped {
			proc.kill()
		}
		mu.Lock()
		r.Stderr = stderr
		mu.Unlock()
	}()
	c.add("extension starts", CheckPass, strings.Join(argv, " "))

	cfg := o.Config
	if cfg == nil {
		cfg, _, err = resolveConfig(o.Getenv, nil, p, nil)
		if err != nil {
			c.add("config resolves", CheckFail, err.Error())
			return r
		}
	}
	call := func(method string, params any) (json.RawMessage, error) {
		d := o.Timeout
		switch method {
		case contract.MethodInitialize:
			d = initTimeout
		case contract.MethodShutdown:
			d = shutdownTimeout
		}
		cctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return proc.conn.Call(cctx, method, params)
	}
	raw, err := call(contract.MethodInitialize, map[string]any{
		"synaps_version": "extensions-test", "extension_protocol_version": contract.ProtocolVersion,
		"plugin_id": p.ID, "plugin_root": abs, "config": cfg,
	})
	mu.Lock()
	lf := append([]string(nil), lfFraming...)
	mu.Unlock()
	if len(lf) > 0 {
		c.add(`framing uses \r\n\r\n (not \n\n)`, CheckFail, `header lines end in a bare \n; write "Content-Length: N\r\n\r\n" before each body`)
	}
	if err != nil {
		detail := describeHandshakeFailure(proc, err, initTimeout)
		if len(lf) == 0 {
			c.add(`framing uses \r\n\r\n (not \n\n)`, CheckSkip, "no frame arrived")
		}
		c.add("initialize answered", CheckFail, detail)
		return r
	}
	if len(lf) == 0 {
		c.add(`framing uses \r\n\r\n (not \n\n)`, CheckPass, "")
	}
	c.add("stdout flushed after every write", CheckPass, "initialize answered within "+initTimeout.String())
	res, err := decodeInitResult(raw)
	if err != nil {
		c.add("initialize answered", CheckFail, err.Error())
		return r
	}
	if res.ProtocolVersion == nil {
		c.add("initialize answered", CheckWarn, `the result has no "protocol_version"; add "protocol_version": 1`)
	} else {
		c.add("initialize answered", CheckPass, "")
	}

	// 3. Permissions for what it declared.
	tools, toolProblems := decodeTools(res.Capabilities.Tools, m.Permissions, nil)
	subs := append([]hook.Subscription(nil), m.Hooks...)
	var hookProblems []string
	if !isNull(res.Capabilities.Hooks) {
		got, warns, err := plugin.AcceptSubscriptions(p.Manifest.File, "initialize result capabilities.hooks", res.Capabilities.Hooks, m.Permissions)
		hookProblems = append(hookProblems, warns...)
		for _, e := range plugin.Errors(err) {
			hookProblems = append(hookProblems, e.Error())
		}
		for _, s := range got {
			if !containsSub(subs, s) {
				subs = append(subs, s)
			}
		}
	}
	if len(toolProblems)+len(hookProblems) > 0 {
		c.add("every permission used is listed in permissions", CheckFail, strings.Join(append(toolProblems, hookProblems...), "\n"))
	} else {
		c.add("every permission used is listed in permissions", CheckPass, fmt.Sprintf("%d tool(s), %d hook subscription(s)", len(tools), len(subs)))
	}
	var missing []string
	for _, perm := range m.PermissionList {
		if h, ok := strings.CutPrefix(perm, contract.HookPermissionPrefix); ok && !subscribed(subs, h) {
			missing = append(missing, fmt.Sprintf("permission %q is listed, but no %s hook is declared, so it will never be called; add {\"name\": %q} to capabilities.hooks in the initialize result", perm, h, h))
		}
	}
	if m.Permissions.Has(contract.PermToolsRegister) && len(tools) == 0 && len(toolProblems) == 0 {
		missing = append(missing, `permission "tools.register" is listed, but initialize declares no tools; list them in capabilities.tools`)
	}
	switch {
	case len(missing) > 0:
		c.add("initialize declares all tools and hooks", CheckFail, strings.Join(missing, "\n"))
	case len(tools) == 0 && len(subs) == 0:
		c.add("initialize declares all tools and hooks", CheckWarn, "the extension declares no tools and no hooks, so synaps will never call it")
	default:
		c.add("initialize declares all tools and hooks", CheckPass, declared(tools, subs))
	}

	// 4. Each tool, with a sample input.
	for _, t := range tools {
		name := "tool " + t.Name + " answers tool.call"
		input, ok := o.Calls[t.Name]
		if !ok {
			input = SampleInput(t.InputSchema)
		}
		raw, err := call(contract.MethodToolCall, toolCallParams{Name: t.Name, Input: input})
		switch {
		case err != nil:
			c.add(name, CheckFail, callFailure(proc, err, o.Timeout, &mu, &noise))
		default:
			out := NormalizeToolResult(raw)
			detail := fmt.Sprintf("input %s → %s", input, truncate(strings.ReplaceAll(out.Output, "\n", "⏎"), 100))
			if out.IsError {
				c.add(name, CheckWarn, detail+" (reported as an error; pass a fixture with --call "+t.Name+"='{...}' if the sample input is not meaningful)")
			} else {
				c.add(name, CheckPass, detail)
			}
		}
	}

	// 5. Each hook, with a sample event.
	seen := map[string]bool{}
	for _, s := range subs {
		if seen[s.Hook] {
			continue
		}
		seen[s.Hook] = true
		spec, _ := contract.LookupHook(s.Hook)
		name := "hook " + s.Hook + " answers with a valid action"
		ev := SampleEvent(s)
		raw, err := call(contract.MethodHookHandle, json.RawMessage(ev.Encode(contract.MaxToolOutputHook)))
		if err != nil {
			c.add(name, CheckFail, callFailure(proc, err, o.Timeout, &mu, &noise))
			continue
		}
		hr, err := hook.DecodeResult(raw)
		switch {
		case err != nil:
			c.add(name, CheckFail, fmt.Sprintf("answer %s: %v", truncate(string(raw), 120), err))
		case !spec.Allows(hr.Action):
			c.add(name, CheckFail, fmt.Sprintf("answered %q, which %s does not allow (allowed: continue%s)", hr.Action, s.Hook, actionList(spec)))
		case hr.Action == contract.ActionReplace && !m.Permissions.Has(contract.PermToolsTransformOutput):
			c.add(name, CheckFail, fmt.Sprintf("answered replace without the %q permission", contract.PermToolsTransformOutput))
		default:
			c.add(name, CheckPass, "answered "+string(hr.Action))
		}
	}

	// 6. Unknown methods: the guide lets an extension answer them or
	// ignore them; what it must not do is die or stop reading. The probe
	// is written straight to stdin (nothing else is in flight) so that it
	// is on the wire before the next real request, which is the one whose
	// answer decides. With no tool and no hook, shutdown is that request.
	probeErr := sendUnknownProbe(proc, o.Timeout)
	var next func() error
	nextName := "shutdown"
	switch {
	case len(tools) > 0:
		t := tools[0]
		input, ok := o.Calls[t.Name]
		if !ok {
			input = SampleInput(t.InputSchema)
		}
		nextName = "tool.call " + t.Name
		next = func() error {
			_, err := call(contract.MethodToolCall, toolCallParams{Name: t.Name, Input: input})
			return err
		}
	case len(subs) > 0:
		nextName = "hook.handle " + subs[0].Hook
		next = func() error {
			_, err := call(contract.MethodHookHandle, json.RawMessage(SampleEvent(subs[0]).Encode(contract.MaxToolOutputHook)))
			return err
		}
	}
	unknownCheck := func(err error) {
		const name = "unknown methods tolerated (no crash)"
		mu.Lock()
		answer := unknownAnswer
		mu.Unlock()
		var rpcErr *jsonrpc.Error
		if probeErr != nil {
			err = probeErr
		}
		switch {
		case err != nil && !errors.As(err, &rpcErr):
			c.add(name, CheckFail, "after an unknown method, "+nextName+" failed: "+callFailure(proc, err, o.Timeout, &mu, &noise)+
				`; answer unknown requests with an error (-32601) or "result": {}, or ignore them, and keep reading`)
		case answer == "":
			c.add(name, CheckPass, "no answer to the unknown method (allowed); "+nextName+" was answered after it")
		default:
			c.add(name, CheckPass, "answered the unknown method with "+truncate(answer, 100))
		}
	}
	if next != nil {
		unknownCheck(next())
	}

	// 7. Shutdown.
	if !proc.alive() {
		if next == nil {
			unknownCheck(jsonrpc.ErrClosed)
		}
		c.add("shutdown response sent before exit", CheckSkip, "the process is not running")
		return r
	}
	_, err = call(contract.MethodShutdown, nil)
	if next == nil {
		unknownCheck(err)
	}
	switch {
	case err != nil:
		c.add("shutdown response sent before exit", CheckFail, "no reply to shutdown within "+shutdownTimeout.String()+" (synaps waits as long, then closes stdin and signals the process)"+`; reply {"jsonrpc":"2.0","id":<id>,"result":{}} and then exit`)
	case !proc.waitExit(2 * time.Second):
		c.add("shutdown response sent before exit", CheckFail, "replied to shutdown but was still running 2 s later; leave the read loop and exit after replying")
	default:
		c.add("shutdown response sent before exit", CheckPass, proc.exitDescription())
	}
	proc.stop(stopTimeouts{reply: 10 * time.Millisecond, exit: 500 * time.Millisecond}, false)
	stopped = true

	mu.Lock()
	if len(noise) > 0 {
		c.add("stdout carries only frames", CheckWarn, strings.Join(noise, "\n")+"\nwrite logs to stderr, never stdout")
	}
	mu.Unlock()
	return r
}

// unknownProbeID is the id of the unknown-method probe: far above any id
// the connection will use, so its answer arrives as an unknown id and is
// recognised by unknownProbeNoise rather than taken for stdout noise.
const unknownProbeID = 1<<53 - 1

var unknownProbeNoise = fmt.Sprintf("dropping response with unknown id %d", unknownProbeID)

// sendUnknownProbe writes a request for a method no extension knows. A
// process that stopped reading with its stdin pipe full cannot block it
// for longer than timeout.
func sendUnknownProbe(p *process, timeout time.Duration) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"synaps.test/unknown_method","params":{}}`, unknownProbeID)
	frame := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	_ = p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	defer p.stdin.SetWriteDeadline(time.Time{})
	_, err := p.stdin.WriteString(frame)
	return err
}

// protocolCheck reads the raw manifest: the guide asks authors to set the
// version explicitly even though 1 is the default.
func protocolCheck(file string) (string, string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return CheckSkip, err.Error()
	}
	var top struct {
		Extension map[string]json.RawMessage `json:"extension"`
	}
	_ = json.Unmarshal(data, &top)
	for _, k := range []string{"extension_protocol_version", "protocol_version"} {
		if string(top.Extension[k]) == "1" {
			return CheckPass, k + ": 1"
		}
	}
	return CheckWarn, `not set; add "extension_protocol_version": 1 to the extension object`
}

func describeHandshakeFailure(p *process, err error, timeout time.Duration) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		reason := initTimeoutReason(p.cmd.Args, timeout)
		if compilesOnStart(p.cmd.Args) == "" {
			reason += " (in Python: sys.stdout.buffer.flush() after each write)"
		}
		return reason
	case !p.alive() || errors.Is(err, jsonrpc.ErrClosed):
		p.waitExit(200 * time.Millisecond)
		return "the process ended during initialize (" + p.exitDescription() + "); its stderr is below"
	}
	return err.Error()
}

func callFailure(p *process, err error, timeout time.Duration, mu *sync.Mutex, noise *[]string) string {
	mu.Lock()
	bad := ""
	for _, n := range *noise {
		if strings.HasPrefix(n, "bad-json") {
			bad = n
		}
	}
	mu.Unlock()
	switch {
	case errors.Is(err, context.DeadlineExceeded) && bad != "":
		return "the answer was not JSON (" + truncate(bad, 160) + "); send the result as a JSON-RPC response object"
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", timeout)
	case !p.alive() || errors.Is(err, jsonrpc.ErrClosed):
		p.waitExit(200 * time.Millisecond)
		return "the process crashed (" + p.exitDescription() + ")"
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return "answered with a JSON-RPC error: " + rpcErr.Message
	}
	return err.Error()
}

func subscribed(subs []hook.Subscription, hook string) bool {
	for _, s := range subs {
		if s.Hook == hook {
			return true
		}
	}
	return false
}

func declared(tools []ToolDecl, subs []hook.Subscription) string {
	var parts []string
	for _, t := range tools {
		parts = append(parts, "tool "+t.Name)
	}
	for _, s := range subs {
		parts = append(parts, "hook "+s.Hook)
	}
	return strings.Join(parts, ", ")
}

func actionList(spec contract.HookSpec) string {
	var b strings.Builder
	for _, a := range spec.Actions {
		b.WriteString(", " + string(a))
	}
	return b.String()
}

// SampleEvent is a plausible event for a subscription: a bash call that
// satisfies its matcher for tool hooks, a short message for the others.
func SampleEvent(s hook.Subscription) *hook.Event {
	ev := &hook.Event{Kind: s.Hook, SessionID: "extensions-test"}
	switch s.Hook {
	case contract.HookBeforeToolCall, contract.HookAfterToolCall:
		name := "bash"
		if s.Tool != "" {
			name = s.Tool
		}
		input := json.RawMessage(`{"command":"echo synaps-test"}`)
		if s.Match != nil {
			switch {
			case s.Match.InputEquals != nil:
				input = s.Match.InputEquals
			case s.Match.InputContains != nil:
				b, _ := json.Marshal(map[string]string{"command": *s.Match.InputContains})
				input = b
			}
		}
		ev.ToolName, ev.ToolRuntimeName, ev.ToolInput = name, name, input
		if s.Hook == contract.HookAfterToolCall {
			out := "synaps-test\n"
			ev.ToolOutput = &out
		}
	case contract.HookBeforeMessage:
		msg := "hello from synaps extensions test"
		ev.Message = &msg
	case contract.HookOnMessageComplete:
		msg := "Hello!"
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"content_block_count":1,"has_tool_use":false}`)
	case contract.HookOnCompaction:
		ev.Data = json.RawMessage(`{"old_session_id":"old","new_session_id":"extensions-test","message_count":4,"source":"manual"}`)
	case contract.HookOnSessionEnd:
		ev.Transcript = json.RawMessage(`[{"role":"user","content":[{"type":"text","text":"hi"}]}]`)
	}
	return ev
}

// SampleInput builds an input that satisfies a JSON Schema's common
// keywords: required properties with values of their type (a default,
// const or first enum value when given).
func SampleInput(schema json.RawMessage) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage("{}")
	}
	v := sampleValue(s, 0)
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{}
	}
	b, _ := json.Marshal(v)
	return b
}

func sampleValue(s map[string]any, depth int) any {
	if d, ok := s["default"]; ok {
		return d
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	typ, _ := s["type"].(string)
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	if typ == "" {
		if _, ok := s["properties"]; ok {
			typ = "object"
		}
	}
	switch typ {
	case "object":
		out := map[string]any{}
		if depth > 5 {
			return out
		}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		names := make([]string, 0, len(req))
		for _, r := range req {
			if n, ok := r.(string); ok {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			ps, _ := props[n].(map[string]any)
			out[n] = sampleValue(ps, depth+1)
		}
		return out
	case "array":
		items, _ := s["items"].(map[string]any)
		n := 0
		if mi, ok := s["minItems"].(float64); ok {
			n = int(mi)
		}
		arr := make([]any, 0, n)
		for i := 0; i < n; i++ {
			arr = append(arr, sampleValue(items, depth+1))
		}
		return arr
	case "integer", "number":
		if mn, ok := s["minimum"].(float64); ok {
			return mn
		}
		return 1
	case "boolean":
		return true
	case "null":
		return nil
	default:
		if mn, ok := s["minLength"].(float64); ok && mn > 4 {
			return strings.Repeat("x", int(mn))
		}
		return "test"
	}
}
