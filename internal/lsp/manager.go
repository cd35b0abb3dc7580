package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// Options configures a Manager. Every field is optional.
type Options struct {
	// WorkDir is the project: the default workspace folder, and what
	// paths in reports are relative to.
	WorkDir string
	// Getenv reads synaps's environment (default: none).
	Getenv func(string) string
	// Version is synaps's version, for clientInfo.
	Version string
	// Policy, when set, is the sandbox policy a server runs under (nil
	// policy: unconfined), as MCP stdio servers get theirs.
	Policy func(Server) *sandbox.Policy
	// Wait is how long a sync waits for a running server's diagnostics;
	// default DefaultWait. FirstWait is how long the first sync after a
	// start waits, when the server is still reading the project;
	// default DefaultFirstWait.
	Wait, FirstWait time.Duration
}

// Defaults of Options.
const (
	DefaultWait      = 2 * time.Second
	DefaultFirstWait = 20 * time.Second
)

// Manager runs the configured servers: each is started on the first
// edit or write of a file it serves (not at the start of the session, so
// a session that edits no Python file never starts pyright), and ended
// by Close.
type Manager struct {
	opts  Options
	byExt map[string]*entry
	all   []*entry
}

// entry is one configured server and, once started, its client.
type entry struct {
	sv Server
	// shadowedBy names the server that serves all of this one's
	// extensions first ("" when it serves some itself).
	shadowedBy string

	mu sync.Mutex // guards the rest; held through a whole Diagnose
	// client is the running server (nil: not started, or ended).
	client *Client
	// starts counts the starts; err is why the last start or run
	// failed; noStart says a start failed (a missing command, a server
	// that does not initialize), which another attempt would repeat;
	// closed says Close has run. Neither starts it again.
	starts  int
	err     error
	noStart bool
	closed  bool
	// said: err has been reported; it is not reported again.
	said bool
	// fresh: no sync has run on client yet (FirstWait applies).
	fresh bool
	// told are, by file, the diagnostics the last report was measured
	// by: what the model knows of. A report that timed out keeps its
	// baseline, so errors published late are still new at the next edit.
	told map[string][]Diagnostic
}

// NewManager prepares servers; none starts until Diagnose needs it.
// When two servers claim an extension, the first (by plugin, then name)
// serves it.
func NewManager(servers []Server, o Options) *Manager {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.FirstWait <= 0 {
		o.FirstWait = DefaultFirstWait
	}
	sorted := append([]Server(nil), servers...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].PluginID != sorted[j].PluginID {
			return sorted[i].PluginID < sorted[j].PluginID
		}
		return sorted[i].Name < sorted[j].Name
	})
	m := &Manager{opts: o, byExt: map[string]*entry{}}
	for _, sv := range sorted {
		e := &entry{sv: sv}
		m.all = append(m.all, e)
		owns := false
		for _, ext := range sv.ExtensionList() {
			if first, ok := m.byExt[ext]; ok {
				e.shadowedBy = first.sv.label()
				continue
			}
			m.byExt[ext] = e
			owns = true
		}
		if owns {
			e.shadowedBy = ""
		}
	}
	return m
}

// label is how a server is named to people: "python (plugin pyright)".
func (sv Server) label() string {
	if sv.PluginID != "" {
		return fmt.Sprintf("%s (plugin %s)", sv.Name, sv.PluginID)
	}
	return sv.Name
}

// Serves reports whether a server is configured for path's extension.
func (m *Manager) Serves(path string) bool {
	return m != nil && m.byExt[strings.ToLower(filepath.Ext(path))] != nil
}

// Report is what one sync learnt about a file.
type Report struct {
	// Server is the server's label; Path the file, relative to the
	// project when inside it.
	Server, Path string
	// New are the errors the change brought: those the file did not
	// have before it (compared by message, code and source, not by
	// line, since an edit moves lines).
	New []Diagnostic
	// Errors is how many errors the file has now.
	Errors int
	// Err is why the server could not be asked (it failed to start or
	// exited); the caller says it to the user, once.
	Err error
	// TimedOut: the server published nothing within the wait.
	TimedOut bool
}

// Diagnose tells path's server that the file now holds after (before is
// what it held, nil for a new file) and returns the errors that are new.
// It returns nil when no server serves path, or when its server has
// failed before (that was said in the report that failed).
func (m *Manager) Diagnose(ctx context.Context, path string, before *string, after string) *Report {
	if m == nil {
		return nil
	}
	ext := strings.ToLower(filepath.Ext(path))
	e := m.byExt[ext]
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	rep := &Report{Server: e.sv.label(), Path: m.rel(path)}
	c, notice, err := m.running(ctx, e)
	if errors.Is(err, errSaid) {
		return nil
	}
	if err != nil {
		rep.Err = err
		return rep
	}
	rep.Err = notice
	lang := e.sv.Language(ext)
	wait := m.opts.Wait
	if e.fresh {
		wait = m.opts.FirstWait
		e.fresh = false
	}
	var baseline []Diagnostic
	if !c.isOpen(path) && before != nil && !c.saves {
		// What the file had before the change is what "new" is
		// measured against: open it as it was first. (Not for a
		// server that diagnoses at didSave: it would read the disk,
		// which holds the change already.)
		began := time.Now()
		if baseline, _, err = c.Sync(ctx, path, lang, *before, wait); err != nil {
			rep.Err = m.exited(e, c, err)
			return rep
		}
		// The two syncs share the one wait: what is left of it, and
		// at least the wait of a running server.
		wait = max(wait-time.Since(began), m.opts.Wait)
	} else if told, ok := e.told[path]; ok {
		baseline = told
	} else {
		baseline = c.known(path)
	}
	diags, got, err := c.Sync(ctx, path, lang, after, wait)
	if err != nil {
		rep.Err = m.exited(e, c, err)
		return rep
	}
	if !got {
		// Nothing for this text: the errors it brought are said at
		// the next edit whose answer comes in time, measured against
		// the same baseline.
		e.told[path] = baseline
		rep.TimedOut = true
		return rep
	}
	e.told[path] = diags
	rep.New = newErrors(baseline, diags)
	for _, d := range diags {
		if isError(d) {
			rep.Errors++
		}
	}
	return rep
}

// running is e's client, started when it is not running and may be.
// notice says that a server which had exited was started again. err is
// why there is no client; errSaid when an earlier call returned it.
func (m *Manager) running(ctx context.Context, e *entry) (c *Client, notice, err error) {
	if e.client != nil {
		select {
		case <-e.client.Exited():
			e.err = fmt.Errorf("language server %s exited: %w", e.sv.label(), e.client.ExitError())
			e.client = nil
		default:
			return e.client, nil, nil
		}
	}
	if e.closed || e.noStart || e.starts > 0 && (e.sv.NoRestart || e.starts > e.sv.MaxRestarts) {
		if e.said {
			return nil, nil, errSaid
		}
		e.said = true
		return nil, nil, e.err
	}
	if e.err != nil {
		notice = fmt.Errorf("%w; started again", e.err)
	}
	e.starts++
	c, err = m.start(ctx, e.sv)
	if err != nil {
		e.err = fmt.Errorf("language server %s did not start: %w", e.sv.label(), err)
		e.noStart, e.said = true, true
		return nil, nil, e.err
	}
	e.client, e.err, e.fresh, e.said = c, nil, true, false
	e.told = map[string][]Diagnostic{}
	return c, notice, nil
}

// errSaid is running's error when the reason there is no server was
// reported already.
var errSaid = errors.New("said before")

// exited is the error of a sync that failed, the server forgotten so
// the next edit restarts it (within maxRestarts).
func (m *Manager) exited(e *entry, c *Client, err error) error {
	c.Close(time.Second)
	e.client = nil
	e.err = fmt.Errorf("language server %s failed: %w", e.sv.label(), err)
	e.said = true
	return e.err
}

// start expands sv's variables and starts it within its startup timeout.
func (m *Manager) start(ctx context.Context, sv Server) (*Client, error) {
	b := map[string]string{}
	if m.opts.WorkDir != "" {
		b["workspaceFolder"] = m.opts.WorkDir
	}
	if sv.PluginDir != "" {
		b["CLAUDE_PLUGIN_ROOT"], b["SYNAPS_PLUGIN_ROOT"] = sv.PluginDir, sv.PluginDir
	}
	if sv.PluginData != "" {
		b["CLAUDE_PLUGIN_DATA"], b["SYNAPS_PLUGIN_DATA"] = sv.PluginData, sv.PluginData
	}
	x := mcp.Expander{Getenv: m.opts.Getenv, Builtins: b}
	where := func(field string) string { return fmt.Sprintf("%s: language server %q: %s", sv.File, sv.Name, field) }
	command, err := x.String(sv.Command, where("command"))
	if err != nil {
		return nil, err
	}
	args := make([]string, len(sv.Args))
	for i, a := range sv.Args {
		if args[i], err = x.String(a, where(fmt.Sprintf("args[%d]", i))); err != nil {
			return nil, err
		}
	}
	env := map[string]string{}
	for k, v := range b {
		if strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "SYNAPS_") {
			env[k] = v
		}
	}
	for k, v := range sv.Env {
		if env[k], err = x.String(v, where("env."+k)); err != nil {
			return nil, err
		}
	}
	dir := m.opts.WorkDir
	if sv.WorkspaceFolder != "" {
		if dir, err = x.String(sv.WorkspaceFolder, where("workspaceFolder")); err != nil {
			return nil, err
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(m.opts.WorkDir, dir)
		}
	}
	so := StartOptions{
		Command: command, Args: args, Env: mcp.ServerEnv(m.opts.Getenv, env), Dir: dir,
		InitializationOptions: sv.InitializationOptions, Settings: sv.Settings, Version: m.opts.Version,
	}
	if m.opts.Policy != nil {
		if pol := m.opts.Policy(sv); pol != nil {
			so.Confine = func(cmd *exec.Cmd, stderr io.Writer) (func(), error) {
				return sandbox.Wrap(cmd, *pol, func(line string) { fmt.Fprintln(stderr, "synaps: sandbox:", line) })
			}
		}
	}
	timeout := sv.StartupTimeout
	if timeout <= 0 {
		timeout = DefaultStartupTimeout
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	c, err := Start(ctx, so)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (not initialized within %s; set \"startupTimeout\" in milliseconds in %s)", err, timeout, sv.File)
	}
	return c, err
}

func (m *Manager) rel(path string) string {
	if m.opts.WorkDir != "" {
		if r, err := filepath.Rel(m.opts.WorkDir, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return r
		}
	}
	return path
}

// Close ends every running server (in parallel, each within its
// shutdown timeout); nothing starts after it.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	var wg sync.WaitGroup
	for _, e := range m.all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.mu.Lock()
			defer e.mu.Unlock()
			e.closed = true
			if e.client == nil {
				return
			}
			t := e.sv.ShutdownTimeout
			if t <= 0 {
				t = DefaultShutdownTimeout
			}
			e.client.Close(t)
			e.client = nil
		}()
	}
	wg.Wait()
}
