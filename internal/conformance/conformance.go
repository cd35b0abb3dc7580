// Package conformance is `synaps extensions test`: the authoring guide's
// step 8 as a product. It starts an extension with no model and no agent,
// speaks the protocol to it as synaps would, and reports each item of the
// guide's checklist as pass, warn or fail with the reason and the fix.
//
// It is built on the public wire contract: the manifest (internal/plugin),
// the tables (internal/contract), the hook event and result forms
// (internal/hook) and JSON-RPC frames. From internal/extension it takes
// only what makes the test exactly as strict as a session — the child
// started the same way (extension.StartChild), the same launch check and
// the same readers of initialize — never the supervisor or the hook chain.
//
// The fake extension its tests run is internal/extension/exttest (Go's
// httptest naming: test helpers for package extension); this package is
// what authors run, so it has a name of its own.
package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

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

// Options tune a test run.
type Options struct {
	// Timeout is the wait for each answer. Default 5 s, and for
	// initialize (10 s) and shutdown (2 s) the runtime's own deadlines,
	// contract.MethodDeadlines, so the test is exactly as patient as
	// synaps.
	Timeout time.Duration
	// Calls are tool inputs to use instead of ones built from the schemas,
	// by tool name.
	Calls map[string]json.RawMessage
	// Getenv reads the environment for the child; nil: os.Getenv.
	Getenv func(string) string
	// Config values for initialize; nil: resolved as a session would.
	Config map[string]any
}

// Names of checks reported from more than one place.
const (
	checkStarts   = "extension starts"
	checkFraming  = `framing uses \r\n\r\n (not \n\n)`
	checkInit     = "initialize answered"
	checkUnknown  = "unknown methods tolerated (no crash)"
	checkShutdown = "shutdown response sent before exit"
)

// run is one test of one extension, step by step.
type run struct {
	ctx                          context.Context
	o                            Options
	initTimeout, shutdownTimeout time.Duration
	r                            *Report
	p                            *plugin.Plugin
	m                            *plugin.ExtensionManifest
	proc                         *extension.Child
	// stopped: proc has been stopped, so release need not kill it.
	stopped bool
	// tools and subs are what the extension declared (manifest and
	// initialize together).
	tools []extension.ToolDecl
	subs  []hook.Subscription

	// mu guards what the child's stderr and noise callbacks write, from
	// the connection's goroutines.
	mu                       sync.Mutex
	stderr, lfFraming, noise []string
	// unknownAnswer is how the extension answered the unknown-method
	// probe; "" for not at all.
	unknownAnswer string
	// cancelCall ends the call in flight early, when a framed body that
	// is not JSON arrives: it was that call's answer, and waiting out the
	// deadline would only make the author wait (and, on a loaded
	// machine, turn a clear "not JSON" into a timeout elsewhere).
	cancelCall context.CancelFunc
}

func (x *run) add(name, status, detail string) {
	x.r.Checks = append(x.r.Checks, Check{name, status, detail})
}

// Run tests the plugin in dir.
func Run(ctx context.Context, dir string, o Options) *Report {
	// initialize and shutdown wait as long as the runtime does (one
	// source: MethodDeadlines), unless --timeout says otherwise.
	x := &run{ctx: ctx, initTimeout: o.Timeout, shutdownTimeout: o.Timeout}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
		x.initTimeout = contract.MethodDeadlines[contract.MethodInitialize]
		x.shutdownTimeout = contract.MethodDeadlines[contract.MethodShutdown]
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	x.o = o
	abs, _ := filepath.Abs(dir)
	x.r = &Report{Dir: abs}
	defer x.passed()

	if !x.manifest(abs) || !x.start() {
		return x.r
	}
	defer x.release()
	res, ok := x.handshake(abs)
	if !ok {
		return x.r
	}
	x.declarations(res)
	x.callTools()
	x.callHooks()
	x.unknownAndShutdown()
	x.endOfInput()
	return x.r
}

// passed sets Report.Passed: no check failed.
func (x *run) passed() {
	x.r.Passed = true
	for _, ch := range x.r.Checks {
		if ch.Status == CheckFail {
			x.r.Passed = false
		}
	}
}

// release kills the child unless it was stopped, and keeps its stderr.
func (x *run) release() {
	if !x.stopped {
		x.proc.Kill()
	}
	x.mu.Lock()
	x.r.Stderr = x.stderr
	x.mu.Unlock()
}

// manifest is step 1: the manifest loads and has an extension.
func (x *run) manifest(abs string) bool {
	name := "plugin.json present at .synaps-plugin/plugin.json and valid"
	x.p = plugin.LoadPlugin(filepath.Base(abs), abs, plugin.ScopeUser)
	if err := x.p.LoadErr(); err != nil {
		x.add(name, CheckFail, err.Error())
		return false
	}
	if x.p.Manifest.Claude {
		name = "plugin.json present at .claude-plugin/plugin.json and valid"
	}
	x.add(name, CheckPass, "")
	x.m = x.p.Manifest.Extension
	if x.m == nil && x.p.Manifest.Claude {
		x.add("manifest has an \"extension\" object", CheckFail, "a Claude Code plugin starts no extension, so there is nothing to run here; `synaps plugins validate "+abs+"` checks its hooks, commands and agents")
		return false
	}
	if x.m == nil {
		x.add("manifest has an \"extension\" object", CheckFail, `nothing to start: add "extension": {"entry_point": "python3 main.py", "extension_protocol_version": 1, "permissions": [...]}`)
		return false
	}
	status, detail := protocolCheck(x.p.Manifest.File)
	x.add("extension_protocol_version: 1 set", status, detail)
	return true
}

// start is step 2a: the process starts.
func (x *run) start() bool {
	if err := extension.CheckLaunch(x.p, x.o.Getenv); err != nil {
		x.add(checkStarts, CheckFail, err.Error())
		return false
	}
	proc, err := extension.StartChild(x.p, extension.ChildOptions{
		Getenv:  x.o.Getenv,
		Stderr:  func(l string) { x.mu.Lock(); x.stderr = append(x.stderr, l); x.mu.Unlock() },
		OnNoise: x.onNoise,
	})
	if err != nil {
		x.add(checkStarts, CheckFail, err.Error())
		return false
	}
	x.proc = proc
	x.add(checkStarts, CheckPass, strings.Join(proc.Argv(), " "))
	return true
}

// onNoise sorts what the connection dropped or repaired.
func (x *run) onNoise(kind, detail string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case kind == "lf-framing":
		x.lfFraming = append(x.lfFraming, detail)
	case kind == "unknown-id" && strings.HasPrefix(detail, unknownProbeNoise):
		// The answer to the unknown-method probe: expected, not noise.
		x.unknownAnswer = strings.TrimPrefix(strings.TrimPrefix(detail, unknownProbeNoise), ": ")
		if x.unknownAnswer == "" {
			x.unknownAnswer = "a result"
		}
	default:
		x.noise = append(x.noise, kind+": "+detail)
		if strings.HasPrefix(kind, "bad-json") && x.cancelCall != nil {
			x.cancelCall()
		}
	}
}

// call sends one request with the deadline its method has in a session.
func (x *run) call(method string, params any) (json.RawMessage, error) {
	d := x.o.Timeout
	switch method {
	case contract.MethodInitialize:
		d = x.initTimeout
	case contract.MethodShutdown:
		d = x.shutdownTimeout
	}
	cctx, cancel := context.WithTimeout(x.ctx, d)
	defer cancel()
	x.mu.Lock()
	x.cancelCall = cancel
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		x.cancelCall = nil
		x.mu.Unlock()
	}()
	return x.proc.Call(cctx, method, params)
}

// handshake is step 2b: config resolves, initialize is answered in
// frames.
func (x *run) handshake(abs string) (*extension.InitResult, bool) {
	cfg := x.o.Config
	if cfg == nil {
		var err error
		if cfg, err = extension.ResolveConfig(x.p, x.o.Getenv); err != nil {
			x.add("config resolves", CheckFail, err.Error())
			return nil, false
		}
	}
	raw, err := x.call(contract.MethodInitialize, map[string]any{
		"synaps_version": "extensions-test", "extension_protocol_version": max(x.m.ProtocolVersion, contract.ProtocolVersion),
		"plugin_id": x.p.ID, "plugin_root": abs, "config": cfg,
	})
	x.mu.Lock()
	lf := append([]string(nil), x.lfFraming...)
	x.mu.Unlock()
	if len(lf) > 0 {
		x.add(checkFraming, CheckFail, `header lines end in a bare \n; write "Content-Length: N\r\n\r\n" before each body`)
	}
	if err != nil {
		detail := describeHandshakeFailure(x.proc, err, x.initTimeout)
		if len(lf) == 0 {
			x.add(checkFraming, CheckSkip, "no frame arrived")
		}
		x.add(checkInit, CheckFail, detail)
		return nil, false
	}
	if len(lf) == 0 {
		x.add(checkFraming, CheckPass, "")
	}
	x.add("stdout flushed after every write", CheckPass, "initialize answered within "+x.initTimeout.String())
	res, err := extension.DecodeInitResult(raw, x.m.ProtocolVersion)
	if err != nil {
		x.add(checkInit, CheckFail, err.Error())
		return nil, false
	}
	if res.ProtocolVersion == nil {
		x.add(checkInit, CheckWarn, `the result has no "protocol_version"; add "protocol_version": 1`)
	} else {
		x.add(checkInit, CheckPass, "")
	}
	return res, true
}

// declarations is step 3: what the extension declared is permitted, and
// every permission is used.
func (x *run) declarations(res *extension.InitResult) {
	m := x.m
	tools, toolProblems := extension.DecodeTools(res.Capabilities.Tools, m.Permissions, nil)
	subs := append([]hook.Subscription(nil), m.Hooks...)
	var hookProblems []string
	if !hook.IsNull(res.Capabilities.Hooks) {
		got, warns, err := plugin.AcceptSubscriptions(x.p.Manifest.File, "initialize result capabilities.hooks", res.Capabilities.Hooks, m.Permissions)
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
	x.tools, x.subs = tools, subs
	if len(toolProblems)+len(hookProblems) > 0 {
		x.add("every permission used is listed in permissions", CheckFail, strings.Join(append(toolProblems, hookProblems...), "\n"))
	} else {
		x.add("every permission used is listed in permissions", CheckPass, plural.Count(len(tools), "tool")+", "+plural.Count(len(subs), "hook subscription"))
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
		x.add("initialize declares all tools and hooks", CheckFail, strings.Join(missing, "\n"))
	case len(tools) == 0 && len(subs) == 0:
		x.add("initialize declares all tools and hooks", CheckWarn, "the extension declares no tools and no hooks, so synaps will never call it")
	default:
		x.add("initialize declares all tools and hooks", CheckPass, declared(tools, subs))
	}
}

// toolInput is the input tried for a tool: the caller's fixture (given
// by the tool's name, or by the name sessions show, "<plugin>_<tool>") or
// a sample built from its schema.
func (x *run) toolInput(t extension.ToolDecl) json.RawMessage {
	if input, ok := x.o.Calls[t.Name]; ok {
		return input
	}
	if input, ok := x.o.Calls[x.p.ID+"_"+t.Name]; ok {
		return input
	}
	return SampleInput(t.InputSchema)
}

// unknownCalls lists the --call fixtures that name no declared tool: a
// typo would otherwise fall back to the sample input without a word.
func (x *run) unknownCalls() []string {
	var bad []string
	for name := range x.o.Calls {
		if !slices.ContainsFunc(x.tools, func(t extension.ToolDecl) bool { return name == t.Name || name == x.p.ID+"_"+t.Name }) {
			bad = append(bad, name)
		}
	}
	slices.Sort(bad)
	return bad
}

// callTools is step 4: each tool answers a sample input.
func (x *run) callTools() {
	if bad := x.unknownCalls(); len(bad) > 0 {
		var names []string
		for _, t := range x.tools {
			names = append(names, t.Name)
		}
		x.add("every --call names a tool", CheckFail, fmt.Sprintf("--call %s: the extension declares no such tool (it declares: %s)", strings.Join(bad, ", "), strings.Join(names, ", ")))
	}
	for _, t := range x.tools {
		name := "tool " + t.Name + " answers tool.call"
		input := x.toolInput(t)
		if s, err := tool.CompileSchema(t.Name, t.InputSchema); err == nil {
			if verr := s.Validate(input); verr != nil {
				x.add("tool "+t.Name+"'s input fits its schema", CheckWarn, fmt.Sprintf("input %s: %v; synaps refuses such an input before the tool runs, so this call shows what the tool does with input a model cannot send", input, verr))
			}
		}
		raw, err := x.call(contract.MethodToolCall, toolCallParams{Name: t.Name, Input: input})
		if err != nil {
			x.add(name, CheckFail, x.callFailure(err))
			continue
		}
		out := extension.NormalizeToolResult(raw)
		detail := fmt.Sprintf("input %s → %s", input, truncate(strings.ReplaceAll(out.Output, "\n", "⏎"), 100))
		if note := resultShapeNote(raw); note != "" {
			x.add(name, CheckWarn, detail+" ("+note+")")
			continue
		}
		if out.IsError {
			x.add(name, CheckWarn, detail+" (reported as an error; pass a fixture with --call "+t.Name+"='{...}' if the sample input is not meaningful)")
		} else {
			x.add(name, CheckPass, detail)
		}
	}
}

// callHooks is step 5: each hook answers a sample event with an action
// it may take.
func (x *run) callHooks() {
	seen := map[string]bool{}
	for _, s := range x.subs {
		if seen[s.Hook] {
			continue
		}
		seen[s.Hook] = true
		spec, _ := contract.LookupHook(s.Hook)
		name := "hook " + s.Hook + " answers with a valid action"
		var answers []string
		failed := false
		for _, ev := range SampleEvents(s) {
			if problem, answer := x.callHook(s, spec, ev); problem != "" {
				x.add(name, CheckFail, problem)
				failed = true
				break
			} else {
				answers = append(answers, answer)
			}
		}
		if !failed {
			x.add(name, CheckPass, strings.Join(answers, "; "))
		}
	}
}

// callHook sends one sample event and says what is wrong with the answer,
// or how it answered ("answered continue", "to rm -rf build: answered
// block").
func (x *run) callHook(s hook.Subscription, spec contract.HookSpec, ev *hook.Event) (problem, answer string) {
	to := ""
	if ev.ToolInput != nil && strings.Contains(string(ev.ToolInput), riskyCommand) {
		to = "to " + riskyCommand + ": "
	}
	raw, err := x.call(contract.MethodHookHandle, ev.Encode(contract.MaxToolOutputHook))
	if err != nil {
		return to + x.callFailure(err), ""
	}
	hr, err := hook.DecodeResult(raw)
	var unknown *hook.UnknownActionError
	switch {
	case errors.As(err, &unknown):
		hint := ""
		if near := hook.NearestAction(unknown.Action, spec); near != "" {
			hint = fmt.Sprintf("; did you mean %q?", near)
		}
		return fmt.Sprintf("%sanswered the unknown action %q, which synaps treats as continue, so the call would go on%s (%s takes continue%s)", to, unknown.Action, hint, s.Hook, actionList(spec)), ""
	case err != nil:
		return fmt.Sprintf("%sanswer %s: %v", to, truncate(string(raw), 120), err), ""
	case !spec.Allows(hr.Action):
		return fmt.Sprintf("%sanswered %q, which %s does not allow, so synaps treats it as continue (allowed: continue%s)", to, hr.Action, s.Hook, actionList(spec)), ""
	case contract.ActionPermissions[hr.Action] != "" && !x.m.Permissions.Has(contract.ActionPermissions[hr.Action]):
		return fmt.Sprintf("%sanswered %s without the %q permission", to, hr.Action, contract.ActionPermissions[hr.Action]), ""
	}
	return "", to + "answered " + string(hr.Action)
}

// checkEOF is the end-of-input check's line.
const checkEOF = "exits when its stdin closes without a shutdown"

// eofGrace is how long the end-of-input check waits for the extension to
// exit. It must cover an interpreter's start on a loaded machine (1 s
// did not: Python extensions were warned of while the tests ran beside
// others); an extension that exits at end of input ends the wait at
// once, so only one that spins costs all of it.
const eofGrace = 5 * time.Second

// endOfInput starts the extension once more and closes its stdin at
// once, as a synaps that is killed or crashes does. An extension that
// then keeps reading an empty pipe spins a core until something kills
// it; one started by hand (a test harness, a second synaps) is never
// killed. A warning, not a failure: synaps itself kills what it started.
func (x *run) endOfInput() {
	proc, err := extension.StartChild(x.p, extension.ChildOptions{Getenv: x.o.Getenv})
	if err != nil {
		x.add(checkEOF, CheckSkip, err.Error())
		return
	}
	defer proc.Kill()
	_ = proc.CloseStdin()
	if proc.WaitExit(eofGrace) {
		x.add(checkEOF, CheckPass, proc.ExitDescription())
		return
	}
	x.add(checkEOF, CheckWarn, fmt.Sprintf("still running %d s after its stdin closed", int(eofGrace/time.Second))+": a read loop that does not stop at end of input spins until killed; "+
		"stop when a read returns nothing (Python: `if not byte: sys.exit(0)` after `sys.stdin.buffer.read(1)`)")
}

// resultShapeNote says what is wrong with a tool.call answer that is an
// object with none of the keys synaps reads (output, content, or error
// with is_error): the model would get the raw JSON. "" when it is fine.
func resultShapeNote(raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	for _, k := range []string{"output", "content", "error"} {
		if _, ok := obj[k]; ok {
			return ""
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, strconv.Quote(k))
	}
	sort.Strings(keys)
	return fmt.Sprintf("the answer has no \"output\" (it has %s): the model gets the raw JSON; answer {\"output\": \"…\"}", orNone(strings.Join(keys, ", ")))
}

func orNone(s string) string {
	if s == "" {
		return "no keys"
	}
	return s
}
