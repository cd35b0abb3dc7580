package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// State is an extension's health as users see it.
type State string

// Health states.
const (
	StateLoaded     State = "loaded"     // running, never crashed
	StateStarting   State = "starting"   // spawned, initialize not answered yet
	StateRestarting State = "restarting" // crashed, a new process is starting
	StateDegraded   State = "degraded"   // crashed before, serving now
	StateFailed     State = "failed"     // not running; Reason says why
	StateDisabled   State = "disabled"   // in disabled_plugins; never spawned
	StateUntrusted  State = "untrusted"  // project plugin of an untrusted project
	StateStopped    State = "stopped"    // shut down by synaps
)

// MaxRestarts is how many consecutive crashes (without a good reply in
// between) are met with a restart; the next one leaves the extension failed.
const MaxRestarts = 3

// ToolDecl is a tool an extension declared in its initialize result.
type ToolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	// Idempotent declares that running the tool twice with the same input
	// has the effect of running it once, so a call whose process crashed
	// may be sent again to the restarted process. Default false: the call
	// is reported as crashed and not retried, so side effects never happen
	// twice.
	Idempotent bool `json:"idempotent,omitempty"`
	// ReadOnly declares that the tool changes nothing (a lookup, a
	// search): the default permission mode runs it without asking, plan
	// mode runs it, and calls of it in one model turn may run side by
	// side. Default false: the tool may change things, so it is asked
	// about, refused in plan mode and keeps its order among the turn's
	// other changing calls. MCP's annotations.readOnlyHint says the same.
	ReadOnly bool `json:"read_only,omitempty"`
}

// Extension supervises the process of one plugin: it starts it, answers
// for its health, restarts it after a crash and retries the call that was
// in flight once, and stops it.
type Extension struct {
	plugin *plugin.Plugin
	env    *hostEnv
	log    *logSink
	// life is cancelled by stop, ending a restart's spawn or handshake.
	life       context.Context
	cancelLife context.CancelFunc

	// Filled once by the first successful initialize and never changed
	// afterwards (a restart re-initialises but keeps them), so dispatch can
	// read them without the lock.
	tools       []ToolDecl
	subs        []hook.Subscription
	providers   json.RawMessage
	config      map[string]any
	initialized bool
	// envOwners are the config variable names of every discovered plugin,
	// set before start, so a name two plugins share is never read.
	envOwners envOwners

	mu sync.Mutex
	// state is the health shown to users. Guarded by mu.
	state State
	// reason explains StateFailed, and the last crash otherwise. Guarded by mu.
	reason string
	// problems are refused capabilities and other load notes. Guarded by mu.
	problems []string
	// proc is the running process, nil when none. Guarded by mu.
	proc *process
	// gen counts successful starts; a caller whose call broke on
	// generation g waits for a generation after g. Guarded by mu.
	gen int
	// failures counts crashes and failed restarts since the last good
	// reply. Guarded by mu.
	failures int
	// restarts counts every restart, for status and traces. Guarded by mu.
	restarts int
	// timeouts counts calls in a row that hit their deadline. Guarded by mu.
	timeouts int
	// answeredOnce: a request after initialize got a reply; the extension
	// has been seen to work. Guarded by mu.
	answeredOnce bool
	// inputCrashes counts calls in a row whose request crashed the process
	// and, retried, its successor (excuseInputCrash). Guarded by mu.
	inputCrashes int
	// timeoutShown: the user has been told this extension timed out on a
	// hook (said once per extension). Guarded by mu.
	timeoutShown bool
	// restarting is closed when the restart under way ends; nil when none.
	// Guarded by mu.
	restarting chan struct{}
	// stopping is set by stop; crashes after it are expected. Guarded by mu.
	stopping bool
}

// errNotRunning wraps every failure of a call to an extension that has no
// process (failed, disabled, stopped).
var errNotRunning = errors.New("extension is not running")

func newExtension(p *plugin.Plugin, env *hostEnv) *Extension {
	life, cancel := context.WithCancel(context.Background())
	return &Extension{plugin: p, env: env, log: newLogSink(env.logDir, p.ID), state: StateStarting, life: life, cancelLife: cancel}
}

// ID is the plugin id.
func (e *Extension) ID() string { return e.plugin.ID }

// start spawns and initialises the first process. A failure leaves the
// extension failed with the reason and the tail of its stderr.
func (e *Extension) start(ctx context.Context) {
	cfg, warnings, err := resolveConfig(e.env.getenv, e.env.config, e.plugin, e.envOwners)
	for _, w := range warnings {
		e.log.note("%s", w)
	}
	e.mu.Lock()
	e.problems = append(e.problems, warnings...)
	e.mu.Unlock()
	if err != nil {
		e.fail(fmt.Sprintf("%s: extension.config: %v", e.plugin.ManifestFile(), err))
		return
	}
	e.config = cfg
	p, res, err := e.launch(ctx)
	if err != nil {
		e.fail(err.Error())
		return
	}
	problems := e.adopt(res)
	e.mu.Lock()
	if e.stopping {
		e.mu.Unlock()
		p.stop(e.env.stop, true)
		return
	}
	e.proc, e.gen, e.state = p, 1, StateLoaded
	e.problems = append(e.problems, problems...)
	e.mu.Unlock()
	for _, pr := range problems {
		e.log.note("%s", pr)
	}
	go e.watch(p)
}

// launch spawns a process and runs the initialize handshake.
func (e *Extension) launch(ctx context.Context) (*process, *InitResult, error) {
	m := e.plugin.Manifest.Extension
	env := childEnv(e.env.getenv, e.plugin, e.env.baseDir)
	argv, _, err := m.Argv(envLookup(env))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %v", e.plugin.ManifestFile(), m.LaunchField(), err)
	}
	p, err := spawn(spawnSpec{
		argv:   argv,
		dir:    e.plugin.Dir,
		env:    env,
		stderr: e.log.stderr,
		connOpt: jsonrpc.Options{
			MaxBody:      e.env.maxBody,
			StallTimeout: e.env.stall,
			Logf:         e.log.note,
			OnNotify: func(method string, params json.RawMessage) {
				e.log.note("notification %s %s", method, truncate(string(params), 200))
			},
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %v", e.plugin.ManifestFile(), m.LaunchField(), err)
	}
	ictx, cancel := context.WithTimeout(ctx, e.env.deadline(contract.MethodInitialize))
	defer cancel()
	raw, err := p.conn.Call(ictx, contract.MethodInitialize, map[string]any{
		"synaps_version":             e.env.version,
		"extension_protocol_version": contract.ProtocolVersion,
		"plugin_id":                  e.plugin.ID,
		"plugin_root":                e.plugin.Dir,
		"config":                     e.config,
	})
	if err != nil {
		// Killed first: kill reaps the process and reads its stderr to
		// the end, so the reason carries its last lines.
		p.kill()
		return nil, nil, errors.New(e.describeCallFailure(p, contract.MethodInitialize, err))
	}
	res, err := DecodeInitResult(raw)
	if err != nil {
		p.stop(e.env.stop, true)
		return nil, nil, fmt.Errorf("initialize result: %v", err)
	}
	return p, res, nil
}

// describeCallFailure explains why a call got no answer, with the hint an
// author needs: for a timeout the usual framing mistakes, for an exit the
// status and the last lines of stderr. p has been killed and released, so
// its exit status is known and its stderr is in the log.
func (e *Extension) describeCallFailure(p *process, method string, err error) string {
	var b strings.Builder
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		if method == contract.MethodInitialize {
			b.WriteString(InitTimeoutReason(p.cmd.Args, e.env.deadline(method)))
		} else {
			fmt.Fprintf(&b, "no answer to %s within %s", method, e.env.deadline(method))
		}
	case errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed):
		fmt.Fprintf(&b, "process ended during %s (%s)", method, p.exitDescription())
	default:
		fmt.Fprintf(&b, "%s failed: %v", method, err)
	}
	if tail := p.stderrTail(); len(tail) > 0 {
		b.WriteString("; stderr: ")
		b.WriteString(strings.Join(tail, " | "))
	}
	return b.String()
}

// InitResult is what an extension answers to initialize, read tolerantly
// (DecodeInitResult).
type InitResult struct {
	ProtocolVersion *int   `json:"protocol_version"`
	Name            string `json:"name"`
	Version         string `json:"version"`
	Capabilities    struct {
		Tools     json.RawMessage `json:"tools"`
		Hooks     json.RawMessage `json:"hooks"`
		Providers json.RawMessage `json:"providers"`
	} `json:"capabilities"`
}

// DecodeInitResult reads an initialize result as the runtime does: null is
// an empty result, a protocol_version other than 1 an error.
func DecodeInitResult(raw json.RawMessage) (*InitResult, error) {
	res := &InitResult{}
	if isNull(raw) {
		return res, nil
	}
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, fmt.Errorf("not an object with capabilities: %v", err)
	}
	if res.ProtocolVersion != nil && *res.ProtocolVersion != contract.ProtocolVersion {
		return nil, fmt.Errorf("protocol_version is %d, but this synaps speaks extension protocol %d", *res.ProtocolVersion, contract.ProtocolVersion)
	}
	return res, nil
}

// adopt takes the capabilities of the first initialize, refusing what the
// permissions do not allow, and returns a note for each refusal. Manifest
// hooks and initialize hooks together are the subscriptions.
func (e *Extension) adopt(res *InitResult) []string {
	if e.initialized {
		return nil
	}
	e.initialized = true
	m := e.plugin.Manifest.Extension
	var problems []string
	if res.ProtocolVersion == nil {
		problems = append(problems, "initialize result has no protocol_version; assuming 1")
	}
	e.tools, problems = DecodeTools(res.Capabilities.Tools, m.Permissions, problems)
	e.subs = append([]hook.Subscription(nil), m.Hooks...)
	if !isNull(res.Capabilities.Hooks) {
		subs, warns, err := plugin.AcceptSubscriptions(e.plugin.ManifestFile(), "initialize result capabilities.hooks", res.Capabilities.Hooks, m.Permissions)
		problems = append(problems, warns...)
		for _, err := range plugin.Errors(err) {
			problems = append(problems, "refused hook: "+err.Error())
		}
		for _, s := range subs {
			if !containsSub(e.subs, s) {
				e.subs = append(e.subs, s)
			}
		}
	}
	if !isNull(res.Capabilities.Providers) {
		if !m.Permissions.Has(contract.PermProvidersRegister) {
			problems = append(problems, fmt.Sprintf("refused providers: declaring providers needs the %q permission in extension.permissions", contract.PermProvidersRegister))
		} else if _, err := decodeProviders(res.Capabilities.Providers); err != nil {
			problems = append(problems, "refused providers: "+err.Error())
		} else {
			e.providers = res.Capabilities.Providers
		}
	}
	return problems
}

func containsSub(list []hook.Subscription, s hook.Subscription) bool {
	b, _ := json.Marshal(s)
	for _, x := range list {
		a, _ := json.Marshal(x)
		if string(a) == string(b) {
			return true
		}
	}
	return false
}

// DecodeTools validates declared tools: non-empty unique name of at most
// 64 characters without ':' or spaces, a description, an object schema, and
// the tools.register permission.
func DecodeTools(raw json.RawMessage, perms contract.Permissions, problems []string) ([]ToolDecl, []string) {
	if isNull(raw) {
		return nil, problems
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, append(problems, "refused tools: capabilities.tools must be an array of tool objects")
	}
	if len(items) > 0 && !perms.Has(contract.PermToolsRegister) {
		return nil, append(problems, fmt.Sprintf("refused %d tool(s): registering tools needs the %q permission in extension.permissions", len(items), contract.PermToolsRegister))
	}
	var tools []ToolDecl
	seen := map[string]bool{}
	for i, item := range items {
		var d struct {
			ToolDecl
			InputSchemaCamel json.RawMessage `json:"inputSchema"`
			Parameters       json.RawMessage `json:"parameters"`
			Annotations      struct {
				ReadOnlyHint bool `json:"readOnlyHint"`
			} `json:"annotations"`
		}
		if err := json.Unmarshal(item, &d); err != nil {
			problems = append(problems, fmt.Sprintf("refused capabilities.tools[%d]: not a tool object: %v", i, err))
			continue
		}
		t := d.ToolDecl
		t.ReadOnly = t.ReadOnly || d.Annotations.ReadOnlyHint
		if len(t.InputSchema) == 0 {
			t.InputSchema = firstNonEmpty(d.InputSchemaCamel, d.Parameters)
		}
		if err := checkTool(t, seen); err != nil {
			problems = append(problems, fmt.Sprintf("refused capabilities.tools[%d]: %v", i, err))
			continue
		}
		seen[t.Name] = true
		tools = append(tools, t)
	}
	return tools, problems
}

func checkTool(t ToolDecl, seen map[string]bool) error {
	switch {
	case t.Name == "":
		return errors.New("tool has no name")
	case len(t.Name) > contract.MaxToolNameLen:
		return fmt.Errorf("tool name %q is longer than %d characters", t.Name, contract.MaxToolNameLen)
	case strings.ContainsAny(t.Name, ": \t\n"):
		return fmt.Errorf("tool name %q contains ':' or whitespace; use letters, digits, '_' or '-'", t.Name)
	case seen[t.Name]:
		return fmt.Errorf("tool %q is declared twice", t.Name)
	case strings.TrimSpace(t.Description) == "":
		return fmt.Errorf("tool %q has no description; the model needs one to know when to call it", t.Name)
	}
	var schema map[string]any
	if len(t.InputSchema) == 0 || json.Unmarshal(t.InputSchema, &schema) != nil || schema == nil {
		return fmt.Errorf("tool %q: input_schema must be a JSON Schema object such as {\"type\":\"object\",\"properties\":{}}", t.Name)
	}
	return nil
}

func firstNonEmpty(raws ...json.RawMessage) json.RawMessage {
	for _, r := range raws {
		if len(r) > 0 {
			return r
		}
	}
	return nil
}

// watch waits for the process to die or its connection to break. Unless
// synaps is stopping it, that is a crash.
func (e *Extension) watch(p *process) {
	select {
	case <-p.exited:
	case <-p.conn.Done():
	}
	e.crashed(p)
}

// crashed handles the loss of process p: it is killed and reaped, and a
// restart begins unless the extension has crashed too often.
func (e *Extension) crashed(p *process) crashReport { return e.lost(p, "") }

// lost is crashed with the reason known to the caller ("" = read it from
// the exit status). The watcher and every caller whose call broke may all
// report the same loss: the first handles it and the others get its
// report, which is complete — exit status and the last stderr lines — by
// the time lost returns.
func (e *Extension) lost(p *process, reason string) crashReport {
	p.lossOnce.Do(func() { p.loss = e.handleLoss(p, reason) })
	return p.loss
}

func (e *Extension) handleLoss(p *process, reason string) crashReport {
	e.mu.Lock()
	if e.proc != p || e.stopping {
		// stop took the process: it ends it politely, not us.
		e.mu.Unlock()
		return crashReport{exit: "synaps is stopping the extension"}
	}
	e.proc = nil
	e.restarting = make(chan struct{})
	e.state = StateRestarting
	// restart counts this crash first thing; say now what it will decide.
	inARow := e.failures + 1
	e.mu.Unlock()

	p.kill()
	c := crashReport{exit: p.exitDescription(), stderr: p.stderrTail()}
	if reason != "" {
		c.exit = reason
	}
	if err := p.conn.Err(); err != nil && errors.Is(err, jsonrpc.ErrFrameTooLarge) {
		c.exit = "protocol error: " + err.Error()
	}
	if err := p.conn.Err(); errors.Is(err, jsonrpc.ErrPeerNotReading) {
		// Not a crash a restart would cure: the extension's design floods
		// synaps. It is failed at once.
		c.exit = "protocol error: " + err.Error()
		why := c.exit + "; an extension must keep reading its stdin while it sends requests, or synaps stops reading from it"
		c.outlook = fmt.Sprintf("it is now failed and will not be restarted; `synaps extensions logs %s` shows its log", e.ID())
		e.log.note("failed: %s", why)
		e.mu.Lock()
		done := e.restarting
		e.state, e.reason, e.restarting = StateFailed, why, nil
		e.mu.Unlock()
		close(done)
		return c
	}
	why := c.String()
	if inARow > MaxRestarts {
		c.outlook = fmt.Sprintf("it has crashed %d times in a row and is now failed; `synaps extensions logs %s` shows its log", inARow, e.ID())
	} else {
		c.outlook = "synaps is restarting it"
	}
	e.log.note("process crashed (%s)", why)
	e.mu.Lock()
	e.reason = why
	e.mu.Unlock()
	go e.restart(why)
	return c
}

// restart starts new processes until one initialises or the extension has
// failed MaxRestarts times in a row. Attempts after a failed one back off
// briefly so a crash loop does not spin.
func (e *Extension) restart(why string) {
	e.mu.Lock()
	done := e.restarting
	e.mu.Unlock()
	defer close(done)
	for attempt := 0; ; attempt++ {
		e.mu.Lock()
		e.failures++
		if e.stopping || e.failures > MaxRestarts {
			if !e.stopping {
				e.state = StateFailed
				e.reason = fmt.Sprintf("crashed %d times in a row; last: %s", e.failures, why)
				e.log.note("giving up: %s", e.reason)
			}
			e.restarting = nil
			e.mu.Unlock()
			return
		}
		e.restarts++
		e.mu.Unlock()
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(50<<attempt) * time.Millisecond):
			case <-e.life.Done():
			}
		}
		p, _, err := e.launch(e.life)
		if err != nil {
			why = err.Error()
			e.log.note("restart failed: %s", why)
			continue
		}
		e.mu.Lock()
		if e.stopping {
			e.restarting = nil
			e.mu.Unlock()
			p.stop(e.env.stop, true)
			return
		}
		e.proc, e.state, e.reason = p, StateDegraded, why
		e.gen++
		e.restarting = nil
		e.mu.Unlock()
		e.log.note("restarted (restart %d)", e.restarts)
		go e.watch(p)
		return
	}
}

// current returns the running process, waiting for a restart under way.
func (e *Extension) current(ctx context.Context) (*process, int, error) {
	for {
		e.mu.Lock()
		p, gen, wait, state, reason := e.proc, e.gen, e.restarting, e.state, e.reason
		e.mu.Unlock()
		if p != nil {
			return p, gen, nil
		}
		if wait == nil {
			if reason == "" {
				reason = string(state)
			}
			return nil, 0, fmt.Errorf("%w (%s: %s)", errNotRunning, state, reason)
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

// callOpts describes a call for crash reports and says whether it may be
// sent again after a crash.
type callOpts struct {
	// doing and what say what the call does, for errors: "running tool"
	// "hello", "handling" "before_tool_call". Two parts, joined only when a
	// crash is reported, so a call allocates nothing for them.
	doing, what string
	// retry allows sending the call once more to the restarted process
	// when the process died with the call in flight. Hooks and providers
	// only decide, so a second try is harmless; a tool may act (write a
	// file, send a mail), so it is retried only when declared idempotent.
	retry bool
	// noRetry says why the call is not retried, when retry is false.
	noRetry string
}

// call sends one request. If the process dies while the call is in
// flight, the call is sent once more to the restarted process when
// o.retry allows it or the request never reached the process; otherwise,
// or if the retry dies too, the error is a *CrashError.
func (e *Extension) call(ctx context.Context, method string, params any, o callOpts) (json.RawMessage, error) {
	p, gen, err := e.current(ctx)
	if err != nil {
		return nil, err
	}
	res, err := p.conn.Call(ctx, method, params)
	switch {
	case connLost(err):
	case e.timedOut(ctx, err):
		// Three calls in a row without an answer: the process is hung.
		// It is treated as crashed — killed and restarted — so later
		// calls do not each wait out the deadline.
		e.lost(p, fmt.Sprintf("hung: no answer to %d calls in a row", maxTimeouts))
		return res, err
	default:
		e.answered(err)
		return res, err
	}
	// A request that was never written cannot have run: sending it again
	// is safe whatever it does.
	unsent := errors.Is(err, jsonrpc.ErrNotSent)
	first := e.crashed(p)
	crash := &CrashError{Extension: e.ID(), During: o.doing + " " + o.what, First: &first}
	if !o.retry && !unsent {
		crash.NotRetried = o.noRetry
		return nil, crash
	}
	p2, gen2, err := e.current(ctx)
	if err == nil && gen2 == gen {
		err = fmt.Errorf("%w: process ended during %s", errNotRunning, method)
	}
	if err != nil {
		crash.RestartErr = err
		return nil, crash
	}
	res, err = p2.conn.Call(ctx, method, params)
	if connLost(err) {
		second := e.crashed(p2)
		crash.Retry = &second
		if e.provenOnOtherInput() {
			e.excuseInputCrash(ctx)
		}
		return nil, crash
	}
	if !e.timedOut(ctx, err) {
		e.answered(err)
	}
	return res, err
}

// provenOnOtherInput reports whether the extension has answered a request
// before: only then is a crash on the call and on its retry put down to the
// input. One that has never answered (it crashes on everything) is broken,
// and its crashes count.
func (e *Extension) provenOnOtherInput() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.answeredOnce
}

// maxInputCrashes is how many calls in a row may crash the extension on
// the call and on its retry and still be put down to their input; after
// that the crashes count, so an extension that crashes on every input
// still ends failed.
const maxInputCrashes = 5

// excuseInputCrash is called when one request crashed a process and,
// retried, its restarted successor: the input, not the extension, is the
// likely cause (a guard whose parser chokes on it). Once the restart under
// way is over, those two crashes are taken off the count that leaves an
// extension failed, so an input sent again and again cannot switch a guard
// off for the session: it is restarted for the next call.
func (e *Extension) excuseInputCrash(ctx context.Context) {
	e.mu.Lock()
	e.inputCrashes++
	n, wait := e.inputCrashes, e.restarting
	e.mu.Unlock()
	if n > maxInputCrashes {
		return
	}
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			return
		}
	}
	e.mu.Lock()
	e.failures = max(0, e.failures-2)
	e.mu.Unlock()
	e.log.note("the same request crashed the extension twice, also after a restart: put down to its input, not counted toward giving up (%d such call(s) in a row)", n)
}

// connLost reports whether a call failed because the process or its pipes
// went away: the connection closed, or the request could not be written
// (the child died between calls and its stdin is a broken pipe).
func connLost(err error) bool {
	return err != nil && (errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed))
}

// maxTimeouts is how many calls in a row may go unanswered before the
// process counts as hung.
const maxTimeouts = 3

// timedOut counts a call that hit its own deadline (not a cancellation by
// the caller) and reports whether the process has now missed maxTimeouts
// in a row.
func (e *Extension) timedOut(ctx context.Context, err error) bool {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.Canceled {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.timeouts++
	if e.timeouts >= maxTimeouts {
		e.timeouts = 0
		return true
	}
	return false
}

// answered resets the crash count after any reply (a JSON-RPC error is a
// reply too: the process is alive and speaking the protocol).
func (e *Extension) answered(err error) {
	var rpcErr *jsonrpc.Error
	if err != nil && !errors.As(err, &rpcErr) {
		return
	}
	e.mu.Lock()
	e.failures, e.timeouts, e.inputCrashes = 0, 0, 0
	e.answeredOnce = true
	e.mu.Unlock()
}

// stop shuts the process down for good and waits for any restart.
func (e *Extension) stop() { e.stopContext(context.Background()) }

// stopContext is stop, cut short when ctx ends (see process.stopContext).
func (e *Extension) stopContext(ctx context.Context) {
	e.mu.Lock()
	e.stopping = true
	p, wait := e.proc, e.restarting
	e.proc = nil
	if e.state != StateFailed {
		e.state = StateStopped
	}
	e.mu.Unlock()
	e.cancelLife()
	if wait != nil {
		<-wait
	}
	if p != nil {
		p.stopContext(ctx, e.env.stop, true)
		e.log.note("stopped (%s)", p.exitDescription())
	}
	e.log.close()
}

// fail marks the extension failed with a reason users will read.
func (e *Extension) fail(reason string) {
	e.mu.Lock()
	e.state, e.reason = StateFailed, reason
	e.mu.Unlock()
	e.log.note("failed to load: %s", reason)
}

// firstTimeout reports whether this is the first hook timeout the user
// hears about, and marks it told.
func (e *Extension) firstTimeout() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	first := !e.timeoutShown
	e.timeoutShown = true
	return first
}

// goneForGood returns why the extension is failed, or "" when it runs or
// may run again.
func (e *Extension) goneForGood() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state == StateFailed {
		return e.reason
	}
	return ""
}

// snapshot returns the health fields under the lock.
func (e *Extension) snapshot() (state State, reason string, problems []string, restarts, pid int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.proc != nil {
		pid = e.proc.pid()
	}
	return e.state, e.reason, append([]string(nil), e.problems...), e.restarts, pid
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
