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
	// StatePartial: the plugin's extension object is invalid, so no
	// process runs, but its skills, commands and other parts loaded.
	StatePartial State = "partial"
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
	providers   json.RawMessage
	config      map[string]any
	initialized bool
	// planned: made by Host.Plan for a listing, never started; its places
	// in the table are those its manifest declares.
	planned bool
	// startDone is closed when the first start has ended, started or
	// failed: the fields above are final then. Hook links and tool
	// lookups of a host started in the background (Host.Begin) wait on
	// it.
	startDone chan struct{}
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
	// actionsShown are the action names the user has been told this
	// extension answered with but the hook does not take (said once per
	// name). Guarded by mu.
	actionsShown map[string]bool
	// tools and subs are what it declared: set by the first initialize
	// (adopt) and replaced once at most, when a process started from a
	// cached answer answers differently (redeclare). Guarded by mu; read
	// them with declared.
	tools []ToolDecl
	subs  []hook.Subscription
	// restarting is closed when the restart under way ends; nil when none.
	// Guarded by mu.
	restarting chan struct{}
	// deferred: its initialize answer came from the cache and its
	// process has not been spawned yet; the first call spawns it
	// (current). Guarded by mu.
	deferred bool
	// cacheKey is the initialize cache key of this start ("" when
	// nothing is cached), and cached the answer the cache gave. Set by
	// start before anything reads them.
	cacheKey string
	cached   *InitResult
	// stopping is set by stop; crashes after it are expected. Guarded by mu.
	stopping bool
	// seenNotes are the unsupported notifications already warned about.
	// Guarded by mu.
	seenNotes map[string]bool
	// configWatch sends config.changed once the extension subscribed; nil
	// before. Guarded by mu.
	configWatch *configWatch
	// stream receives provider.stream.event notifications while a
	// provider.stream call runs; nil otherwise. Guarded by mu.
	stream *streamSink
	// commands receive command.output and task.* notifications while
	// command.invoke calls run, by request id. Guarded by mu.
	commands map[string]*commandSink
	// info is the info.get answer, nil until one came. Guarded by mu.
	info json.RawMessage
	// infoDone is closed when the info.get call has ended; nil when none
	// was made. Guarded by mu.
	infoDone chan struct{}
}

// errNotRunning wraps every failure of a call to an extension that has no
// process (failed, disabled, stopped).
var errNotRunning = errors.New("extension is not running")

func newExtension(p *plugin.Plugin, env *hostEnv) *Extension {
	life, cancel := context.WithCancel(context.Background())
	return &Extension{plugin: p, env: env, log: newLogSink(env.logDir, p.ID), state: StateStarting, life: life, cancelLife: cancel, startDone: make(chan struct{})}
}

// started reports whether the first start has ended (started or failed).
func (e *Extension) started() bool {
	select {
	case <-e.startDone:
		return true
	default:
		return false
	}
}

// awaitStart waits until the first start has ended, or ctx ends (false).
func (e *Extension) awaitStart(ctx context.Context) bool {
	select {
	case <-e.startDone:
		return true
	case <-ctx.Done():
		return false
	}
}

// ID is the plugin id.
func (e *Extension) ID() string { return e.plugin.ID }

// start spawns and initialises the first process. A failure leaves the
// extension failed with the reason and the tail of its stderr. Its caller
// closes startDone once the extension's tools are registered.
func (e *Extension) start(ctx context.Context) {
	cfg, warnings, err := resolveConfig(configSources{getenv: e.env.getenv, global: e.env.config, projectDir: e.env.projectDir, owners: e.envOwners}, e.plugin)
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
	if e.env.cacheOn() {
		e.cacheKey = e.initKey()
		if res := e.cachedInit(e.cacheKey); res != nil && e.startCached(res) {
			return
		}
	}
	p, res, err := e.launch(ctx)
	if err != nil {
		e.fail(err.Error())
		return
	}
	problems := e.adopt(res)
	if e.cacheKey != "" {
		e.storeInit(e.cacheKey, res)
	}
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
	e.running(p, res)
}

// startCached takes a cached initialize answer instead of waiting for
// one: the extension counts as loaded and its tools register at once. An
// extension that hooks tool calls only is spawned at the first call that
// needs it (current); one that hooks the session's or a message's events
// is spawned now, and each of its hooks waits for that start (link.AwaitStart)
// while the rest of the session goes on.
func (e *Extension) startCached(res *InitResult) bool {
	problems := e.adopt(res)
	_, subs := e.declared()
	e.mu.Lock()
	if e.stopping {
		e.mu.Unlock()
		return true
	}
	e.cached, e.deferred, e.state = res, true, StateLoaded
	e.problems = append(e.problems, problems...)
	now := !toolHooksOnly(subs)
	if now {
		e.beginDeferredLocked()
	}
	e.mu.Unlock()
	for _, pr := range problems {
		e.log.note("%s", pr)
	}
	if now {
		e.log.note("initialize answer taken from the cache (%s); the process starts now, and its hooks wait for it", InitCacheDir(e.env.baseDir))
	} else {
		e.log.note("initialize answer taken from the cache (%s); the process starts at the first tool call it serves or judges", InitCacheDir(e.env.baseDir))
	}
	return true
}

// launchDeferred spawns an extension started from the cache; done is
// e.restarting, which callers wait on meanwhile. A start that fails
// leaves the extension failed, as a failed start at the session's start
// would, says so, and drops the cache entry, so the next start spawns it
// and waits for it. An answer that differs from the cached one replaces
// it, and the session's tools and hook places follow (redeclare).
func (e *Extension) launchDeferred(done chan struct{}) {
	defer close(done)
	p, res, err := e.launch(e.life)
	e.mu.Lock()
	e.restarting = nil
	if e.stopping {
		e.mu.Unlock()
		if p != nil {
			p.stop(e.env.stop, true)
		}
		return
	}
	if err != nil {
		e.state, e.reason = StateFailed, err.Error()
		e.mu.Unlock()
		e.log.note("failed to start: %s", err)
		e.dropInit()
		e.env.notify.failedToLoad(e.ID(), err.Error())
		return
	}
	e.proc, e.gen = p, 1
	e.mu.Unlock()
	e.log.note("started from its cached answer")
	if !sameAnswer(res.Raw, e.cached.Raw) {
		e.redeclare(res)
	}
	e.running(p, res)
}

// beginDeferred starts a deferred extension's process unless it runs or
// is starting; the returned channel is closed when that start ends (nil:
// nothing to wait for).
func (e *Extension) beginDeferred() chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.beginDeferredLocked()
	return e.restarting
}

// beginDeferredLocked is beginDeferred with e.mu held.
func (e *Extension) beginDeferredLocked() {
	if e.deferred && e.proc == nil && e.restarting == nil && !e.stopping && e.state == StateLoaded {
		e.deferred = false
		e.restarting = make(chan struct{})
		go e.launchDeferred(e.restarting)
	}
}

// isDeferred reports whether the process waits for its first call.
func (e *Extension) isDeferred() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.deferred && e.proc == nil && e.state == StateLoaded
}

// wantsInfo reports whether to ask info.get after initialize: SynapsCLI
// asks an extension that declared tools, providers or extra capabilities,
// so an extension written for it (the SynapsCLI dialect) expects the call;
// an extension written from the authoring guide is never asked.
func (e *Extension) wantsInfo(res *InitResult) bool {
	m := e.plugin.Manifest.Extension
	if m.Command == "" {
		return false
	}
	return !hook.IsNull(res.Capabilities.Tools) || !hook.IsNull(res.Capabilities.Providers) || !hook.IsNull(res.Capabilities.Extra)
}

// fetchInfo asks info.get once, directly on p's connection: its timeout
// or error is never a crash or a restart (SynapsCLI only logs them), and
// an extension that does not know the method is not even logged. Nor is
// a call that stopping the extension cut short: a session that ends
// before the answer (a short -p run) is the normal case, not a failure.
func (e *Extension) fetchInfo(p *process) {
	ctx, cancel := context.WithTimeout(e.life, e.env.deadline(contract.MethodInfoGet))
	defer cancel()
	raw, err := p.conn.Call(ctx, contract.MethodInfoGet, nil)
	if err != nil {
		if e.life.Err() != nil {
			return
		}
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && (rpcErr.Code == jsonrpc.CodeMethodNotFound || strings.Contains(strings.ToLower(rpcErr.Message), "method not found") || strings.Contains(strings.ToLower(rpcErr.Message), "unknown method")) {
			return
		}
		e.log.note("info.get: %v", err)
		return
	}
	if hook.IsNull(raw) {
		return
	}
	e.mu.Lock()
	e.info = raw
	e.mu.Unlock()
	e.log.note("info.get: %s", truncate(string(raw), 500))
}

// Info is what the extension answered to info.get, or nil.
func (e *Extension) Info() json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.info
}

// awaitHold waits until processes may be spawned (Options.Hold), or ctx
// ends, or the extension is stopped: a session quit before its first
// frame spawns nothing.
func (e *Extension) awaitHold(ctx context.Context) error {
	if e.env.hold == nil {
		return nil
	}
	select {
	case <-e.env.hold:
	case <-ctx.Done():
	case <-e.life.Done():
	}
	switch {
	case e.life.Err() != nil: // also when the hold ended with the session
		return errors.New("not started: the session ended first")
	case ctx.Err() != nil:
		return fmt.Errorf("not started: %w", ctx.Err())
	}
	return nil
}

// launch spawns a process and runs the initialize handshake.
func (e *Extension) launch(ctx context.Context) (*process, *InitResult, error) {
	m := e.plugin.Manifest.Extension
	env := childEnv(e.env.getenv, e.plugin, e.env.baseDir)
	argv, _, err := m.Argv(envLookup(env))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %v", e.plugin.ManifestFile(), m.LaunchField(), err)
	}
	if err := e.awaitHold(ctx); err != nil {
		return nil, nil, err
	}
	p, err := spawn(spawnSpec{
		argv:   argv,
		dir:    e.plugin.Dir,
		env:    env,
		stderr: e.log.stderr,
		policy: e.env.policy(e.plugin),
		note:   func(line string) { e.log.note("%s", line) },
		connOpt: jsonrpc.Options{
			MaxBody:      e.env.maxBody,
			StallTimeout: e.env.stall,
			Logf:         e.log.note,
			Handler:      e.handleRequest,
			OnNotify:     e.handleNotification,
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %v%s", e.plugin.ManifestFile(), m.LaunchField(), err, setupHint(e.plugin, err))
	}
	ictx, cancel := context.WithTimeout(ctx, e.env.deadline(contract.MethodInitialize))
	defer cancel()
	raw, err := p.conn.Call(ictx, contract.MethodInitialize, map[string]any{
		"synaps_version":             e.env.version,
		"extension_protocol_version": max(m.ProtocolVersion, contract.ProtocolVersion),
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
	res, err := DecodeInitResult(raw, m.ProtocolVersion)
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

// firstBadAction reports whether the user has yet to hear that this
// extension answered with the action name, and marks it told.
func (e *Extension) firstBadAction(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.actionsShown[name] {
		return false
	}
	if e.actionsShown == nil {
		e.actionsShown = map[string]bool{}
	}
	e.actionsShown[name] = true
	return true
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

// setupHint points at the plugin's setup script (SynapsCLI's
// extension.setup, else provides.sidecar.setup) when the command was not
// found: the script builds it, and running it failed or never happened.
func setupHint(p *plugin.Plugin, err error) string {
	if !errors.Is(err, os.ErrNotExist) {
		return ""
	}
	script := p.Manifest.Extension.Setup
	if script == "" && p.Manifest.Sidecar != nil {
		script = p.Manifest.Sidecar.Setup
	}
	if script == "" {
		return ""
	}
	return fmt.Sprintf("; the plugin's setup script builds it: run `bash %s` in %s (synaps extensions install runs it)", script, p.Dir)
}

// running watches a process that answered initialize and, when it
// declared commands, help or settings, fetches them in the background
// (infoDone closes when that is done). Start and a deferred start both
// end so.
func (e *Extension) running(p *process, res *InitResult) {
	go e.watch(p)
	if e.wantsInfo(res) {
		done := make(chan struct{})
		e.mu.Lock()
		e.infoDone = done
		e.mu.Unlock()
		go func() {
			defer close(done)
			e.fetchInfo(p)
		}()
	}
}
