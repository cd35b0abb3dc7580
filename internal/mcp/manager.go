package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/sandbox"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Defaults of Options.
const (
	// DefaultStartTimeout bounds connecting to a server and listing its
	// tools.
	DefaultStartTimeout = 30 * time.Second
	// DefaultCallTimeout bounds one tool call.
	DefaultCallTimeout = 120 * time.Second
	// DefaultTerminateDuration is each step of a stdio server's stop
	// sequence (close stdin, wait, SIGTERM, wait, SIGKILL). The SDK's own
	// default, 5 s, made every exit wait that long on servers that ignore
	// the end of their input.
	DefaultTerminateDuration = time.Second
)

// State is where a server is in its life.
type State string

const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateFailed   State = "failed"
	StateDisabled State = "disabled"
	StateClosed   State = "closed"
)

// Options configure a Manager. Zero values take the documented defaults.
type Options struct {
	// Registry receives every ready server's tools (required).
	Registry *tool.Registry
	// Getenv reads synaps's environment for expansion and the servers'
	// pass-through variables; nil: os.Getenv.
	Getenv func(string) string
	// WorkDir is the project directory: a stdio server's default working
	// directory, ${workspaceFolder}, and the one root offered to servers.
	WorkDir string
	// Version is synaps's version, told to servers.
	Version string
	// MaxOutput caps a tool result's text, in bytes (0:
	// tool.DefaultMaxOutput).
	MaxOutput int
	// StartTimeout bounds connect + list tools per server (0:
	// DefaultStartTimeout). $MCP_TIMEOUT (milliseconds, as Claude Code
	// reads it) wins over it, and a server's startup_timeout_sec over
	// both.
	StartTimeout time.Duration
	// CallTimeout bounds one tool call (0: DefaultCallTimeout).
	// $MCP_TOOL_TIMEOUT (milliseconds) wins over it, and a server's
	// tool_timeout_sec over both.
	CallTimeout time.Duration
	// TerminateDuration is each wait of a stdio server's stop sequence
	// (0: DefaultTerminateDuration).
	TerminateDuration time.Duration
	// OnChange hears every change of a server's state or tools (called
	// from the server's goroutine; keep it short).
	OnChange func(Status)
	// Policy, when set, is the sandbox policy a stdio server runs under
	// (internal/sandbox); nil from it runs the server unconfined.
	Policy func(Server) *sandbox.Policy
	// Hold, when set, keeps every server from starting until it is
	// closed (extension.Options.Hold says why); its start timeout runs
	// from then.
	Hold <-chan struct{}
	// relist is the re-list policy after tools/list_changed (zero: the
	// Relist* defaults); tests set it.
	relist relistPolicy
}

// Status describes one server for people.
type Status struct {
	Name      string
	Transport string
	// Target is the command line or url (after expansion when started).
	Target string
	Source Source
	Line   int
	State  State
	// Err says why the server failed.
	Err string
	// Stderr is the last lines the server wrote to stderr (stdio only).
	Stderr []string
	// Tools are the model-facing names of its tools, sorted.
	Tools []string
	// Overridden are the sources whose entry of this name this one
	// replaced.
	Overridden []Source
	// EnvNames and HeaderNames are the names the entry sets, sorted
	// (values are not shown: they are often secrets).
	EnvNames, HeaderNames []string
}

func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Manager runs the configured servers and keeps their tools in the
// registry.
type Manager struct {
	opts  Options
	impl  *sdk.Implementation
	ctx   context.Context
	stop  context.CancelFunc
	start time.Duration
	call  time.Duration
	term  time.Duration
	// relist is Options.relist with its defaults.
	relist relistPolicy

	mu sync.Mutex
	// servers is every configured server, in name order; set by Start,
	// guarded by mu.
	servers []*server
	// names hands out tool names; guarded by mu.
	names namer
	// closed is set by Close; guarded by mu. No goroutine starts after.
	closed bool
	// wg counts connect and refresh goroutines; Add only under mu while
	// !closed.
	wg sync.WaitGroup
}

// NewManager returns a Manager; Start starts its servers.
func NewManager(o Options) *Manager {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	m := &Manager{opts: o, impl: &sdk.Implementation{Name: "synaps", Version: o.Version}}
	m.ctx, m.stop = context.WithCancel(context.Background())
	m.start = durationOr(envMillis(o.Getenv, "MCP_TIMEOUT"), o.StartTimeout, DefaultStartTimeout)
	m.call = durationOr(envMillis(o.Getenv, "MCP_TOOL_TIMEOUT"), o.CallTimeout, DefaultCallTimeout)
	m.term = durationOr(o.TerminateDuration, 0, DefaultTerminateDuration)
	m.relist = o.relist.orDefaults()
	return m
}

// TerminateDuration is the wait of each step of a stdio server's stop.
func (m *Manager) TerminateDuration() time.Duration { return m.term }

func durationOr(ds ...time.Duration) time.Duration {
	for _, d := range ds {
		if d > 0 {
			return d
		}
	}
	return 0
}

func envMillis(getenv func(string) string, name string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Millisecond
}

// Start begins connecting to every enabled server of cfg, each in its own
// goroutine, and returns at once: a server's tools enter the registry
// when it is ready.
func (m *Manager) Start(cfg *Config) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, sc := range cfg.Servers {
		s := &server{m: m, cfg: sc, state: StateStarting, ready: make(chan struct{}), overridden: cfg.Overridden[sc.Name]}
		m.servers = append(m.servers, s)
		switch {
		case m.closed:
			s.state = StateClosed
			close(s.ready)
		case sc.Err != nil:
			s.state, s.err = StateFailed, sc.Err
			close(s.ready)
		case sc.Disabled:
			s.state = StateDisabled
			close(s.ready)
		default:
			m.wg.Add(1)
			go func() {
				defer m.wg.Done()
				s.connect()
			}()
		}
	}
}

// Wait blocks until every server is ready or failed, or ctx ends.
func (m *Manager) Wait(ctx context.Context) error {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	for _, s := range servers {
		select {
		case <-s.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Statuses describes every server, in name order.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	out := make([]Status, len(servers))
	for i, s := range servers {
		out[i] = s.status()
	}
	return out
}

// Close stops every server and takes its tools out of the registry. Stdio
// servers stop in parallel, each within about 3 × TerminateDuration.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	m.stop()
	m.wg.Wait()
	var wg sync.WaitGroup
	errs := make([]error, len(servers))
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// goServer runs f in a goroutine counted by wg, unless the manager is
// closed.
func (m *Manager) goServer(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		f()
	}()
}

// server is one running (or failed) server.
type server struct {
	m          *Manager
	cfg        Server
	overridden []Source
	// ready is closed once the first connect ends, either way.
	ready chan struct{}
	// stderr keeps the last lines of a stdio server's stderr.
	stderr StderrTail
	// policy confines a stdio server (nil: unconfined); dir is its
	// working directory. Set before it starts.
	policy *sandbox.Policy
	dir    string
	// refreshMu serialises tool list refreshes.
	refreshMu sync.Mutex
	// relist debounces and bounds re-lists after tools/list_changed.
	relist relister
	// ended is closed when the watcher of a connected session has seen
	// it end (nil until connected).
	ended chan struct{}

	mu sync.Mutex
	// state, err, session, proc, tools and target are guarded by mu.
	state   State
	err     error
	session *sdk.ClientSession
	proc    *proc
	tools   []string
	target  string
}

func (s *server) source() string { return "mcp:" + s.cfg.Name }

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{
		Name: s.cfg.Name, Transport: s.cfg.Type, Target: s.target, Source: s.cfg.Source, Line: s.cfg.Line,
		State: s.state, Tools: append([]string(nil), s.tools...), Overridden: s.overridden,
		EnvNames: sortedKeys(s.cfg.Env), HeaderNames: sortedKeys(s.cfg.Headers),
	}
	if st.Target == "" {
		st.Target = describeTarget(s.cfg)
	}
	if s.err != nil {
		st.Err = s.err.Error()
		st.Stderr = s.stderr.Lines()
	}
	return st
}

func describeTarget(c Server) string {
	if c.Type == TransportStdio || c.Command != "" {
		return strings.TrimSpace(c.Command + " " + strings.Join(c.Args, " "))
	}
	return c.URL
}

func (s *server) changed() {
	if s.m.opts.OnChange != nil {
		s.m.opts.OnChange(s.status())
	}
}

func (s *server) fail(err error) {
	s.mu.Lock()
	s.state, s.err = StateFailed, err
	s.mu.Unlock()
	s.changed()
}

func (s *server) startTimeout() time.Duration {
	if s.cfg.StartupTimeoutSec > 0 {
		return time.Duration(s.cfg.StartupTimeoutSec * float64(time.Second))
	}
	return s.m.start
}

func (s *server) callTimeout() time.Duration {
	if s.cfg.ToolTimeoutSec > 0 {
		return time.Duration(s.cfg.ToolTimeoutSec * float64(time.Second))
	}
	return s.m.call
}

// connect starts the server, initialises it and registers its tools.
func (s *server) connect() {
	defer close(s.ready)
	if s.m.opts.Hold != nil {
		select {
		case <-s.m.opts.Hold:
		case <-s.m.ctx.Done():
		}
		if s.m.ctx.Err() != nil { // closed before it could start
			s.mu.Lock()
			s.state = StateClosed
			s.mu.Unlock()
			return
		}
	}
	c, err := s.m.expander(s.cfg).Expand(s.cfg)
	if err != nil {
		s.fail(err)
		return
	}
	c.Env = withOptions(c.Env, c.UserConfig)
	s.mu.Lock()
	s.target = describeTarget(c)
	s.mu.Unlock()
	transport, err := s.transport(c)
	if err != nil {
		s.fail(err)
		return
	}
	client := sdk.NewClient(s.m.impl, &sdk.ClientOptions{
		// Debounced and bounded (relist.go); the re-list runs in its
		// own goroutine, not on the SDK's reading one.
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.listChanged() },
	})
	if s.m.opts.WorkDir != "" {
		client.AddRoots(&sdk.Root{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(s.m.opts.WorkDir)}).String(), Name: filepath.Base(s.m.opts.WorkDir)})
	}
	timeout := s.startTimeout()
	ctx, cancel := context.WithTimeout(s.m.ctx, timeout)
	defer cancel()
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		s.fail(s.startError(ctx, err, timeout))
		s.killLeftovers()
		return
	}
	s.mu.Lock()
	s.session = cs
	s.ended = make(chan struct{})
	s.mu.Unlock()
	go s.watch(cs)
	if err := s.list(ctx); err != nil {
		s.fail(s.startError(ctx, fmt.Errorf("listing tools: %w", err), timeout))
		return
	}
	s.mu.Lock()
	s.state = StateReady
	s.mu.Unlock()
	s.changed()
}

func (s *server) startError(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case s.m.ctx.Err() != nil:
		return errors.New("synaps ended before the server was ready")
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("not ready within %s (set \"startup_timeout_sec\" on the server, or MCP_TIMEOUT in milliseconds): %w", timeout, err)
	}
	return err
}

// expander builds the variable expander for c.
func (m *Manager) expander(c Server) Expander {
	b := map[string]string{}
	if m.opts.WorkDir != "" {
		b["workspaceFolder"] = m.opts.WorkDir
	}
	if h := m.opts.Getenv("HOME"); h != "" {
		b["userHome"] = h
	}
	if c.PluginDir != "" {
		b["CLAUDE_PLUGIN_ROOT"] = c.PluginDir
		b["SYNAPS_PLUGIN_ROOT"] = c.PluginDir
	}
	if c.PluginData != "" {
		b["CLAUDE_PLUGIN_DATA"] = c.PluginData
		b["SYNAPS_PLUGIN_DATA"] = c.PluginData
	}
	for k, v := range c.UserConfig {
		b[userConfigPrefix+k] = v
	}
	return Expander{Getenv: m.opts.Getenv, Builtins: b, Plugin: c.PluginID}
}

// refresh lists the tools again (after tools/list_changed).
func (s *server) refresh() error {
	ctx, cancel := context.WithTimeout(s.m.ctx, s.startTimeout())
	defer cancel()
	return s.list(ctx)
}

// list fetches the server's tools and puts them in the registry in place
// of its earlier ones.
func (s *server) list(ctx context.Context) error {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	s.mu.Lock()
	cs := s.session
	s.mu.Unlock()
	if cs == nil {
		return errors.New("not connected")
	}
	var remote []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		remote = append(remote, t)
	}
	sort.Slice(remote, func(i, j int) bool { return remote[i].Name < remote[j].Name })
	reg := s.m.opts.Registry
	m := s.m
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.names.release(s.cfg.Name)
	var names []string
	var problems []string
	var tools []*mcpTool
	for _, rt := range remote {
		t, err := newTool(s, m.names.name(s.cfg.Name, rt.Name), rt)
		if err != nil {
			problems = append(problems, fmt.Sprintf("tool %s: %v", rt.Name, err))
			continue
		}
		tools = append(tools, t)
	}
	// One step: a request built meanwhile sees the old tools or the new
	// ones, never a part of the list.
	add := make([]tool.Tool, len(tools))
	for i, t := range tools {
		add[i] = t
	}
	specs, errs := reg.Replace(s.source(), add)
	for i, t := range tools {
		if errs[i] != nil {
			problems = append(problems, fmt.Sprintf("tool %s: %v", t.remote, errs[i]))
			continue
		}
		t.spec.Name = specs[i].Name
		names = append(names, t.spec.Name)
	}
	m.mu.Unlock()
	sort.Strings(names)
	s.mu.Lock()
	s.tools = names
	if len(problems) > 0 {
		s.err = errors.New(strings.Join(problems, "; "))
	} else if s.state == StateReady {
		s.err = nil
	}
	ready := s.state == StateReady
	s.mu.Unlock()
	if ready {
		s.changed()
	}
	return nil
}

// watch waits for the session to end. One that ends while synaps still
// uses it (the server crashed or exited) makes the server failed, with
// its stderr, and takes its tools out of the registry.
func (s *server) watch(cs *sdk.ClientSession) {
	err := cs.Wait()
	s.mu.Lock()
	ended := s.ended
	gone := s.session == cs
	if gone {
		s.session = nil
		s.state = StateFailed
		s.err = errors.New("the server ended during the session")
		if err != nil && !errors.Is(err, context.Canceled) {
			s.err = fmt.Errorf("the server ended during the session: %w", err)
		}
		s.tools = nil
	}
	s.mu.Unlock()
	if gone {
		s.m.opts.Registry.Remove(s.source())
		// Close releases the SDK's goroutines of the dead session and
		// reaps the process.
		cs.Close()
		s.killLeftovers()
		s.changed()
	}
	close(ended)
}

// close ends the session (and a stdio server's process) and takes the
// server's tools out of the registry.
func (s *server) close() error {
	s.mu.Lock()
	cs, ended := s.session, s.ended
	s.session = nil
	if s.state == StateReady || s.state == StateStarting {
		s.state = StateClosed
	}
	s.mu.Unlock()
	s.m.opts.Registry.Remove(s.source())
	var err error
	if cs != nil {
		err = cs.Close()
		// A stdio server's exit status after our own SIGTERM is no
		// news.
		var ee interface{ ExitCode() int }
		if errors.As(err, &ee) {
			err = nil
		}
	}
	if ended != nil {
		<-ended
	}
	s.killLeftovers()
	return err
}
