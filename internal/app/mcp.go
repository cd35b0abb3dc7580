package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"github.com/synaps-cli/synaps/internal/tool"
)

// MCPSources are the places MCP servers are configured for a session in
// workDir: synaps's own files, Claude Code's and Cursor's, the project's
// only when it is trusted (as project plugins), and every enabled plugin's
// .mcp.json.
func MCPSources(baseDir, workDir string, getenv func(string) string, trustProject bool) mcp.Sources {
	return mcpSources(baseDir, workDir, getenv, trustProject, func(o plugin.DiscoverOptions) []*plugin.Plugin {
		plugins, _ := plugin.Discover(o)
		return plugins
	})
}

// mcpSources is MCPSources with the plugins from discover (a session's
// start shares its one discovery).
func mcpSources(baseDir, workDir string, getenv func(string) string, trustProject bool, discover func(plugin.DiscoverOptions) []*plugin.Plugin) mcp.Sources {
	trusted := trustProject
	if !trusted {
		trusted, _ = plugin.IsTrusted(baseDir, workDir)
	}
	cfg, _ := config.Load(filepath.Join(baseDir, "config"))
	src := mcp.Sources{BaseDir: baseDir, Home: getenv("HOME"), ProjectDir: workDir, ProjectTrusted: trusted,
		// claude.import_user_hooks = false: no ~/.claude.json servers.
		NoClaudeUser: cfg != nil && !importClaudeUser(cfg.Get)}
	var disabled []string
	if cfg != nil {
		disabled = cfg.List("disabled_plugins")
	}
	plugins := discover(plugin.DiscoverOptions{
		BaseDir: baseDir, ProjectDir: workDir, TrustProject: trustProject, Disabled: disabled, Verify: verifyMode(cfg),
	})
	for _, p := range plugins {
		if p.Err != nil || p.Disabled || p.Untrusted {
			continue
		}
		sources, _ := p.MCPSources() // bad paths are said by the plugin's status
		opts := OptionValues(baseDir, cfg, p)
		for _, s := range sources {
			src.Plugins = append(src.Plugins, mcp.PluginDir{ID: p.ID, Dir: p.Dir, File: s.File, Data: s.Data, Sandbox: declared(p.Manifest.Sandbox), DataDir: pluginDataDir(baseDir, p.ID), UserConfig: opts})
		}
	}
	return src
}

// startMCP begins connecting to every configured MCP server, without
// waiting: each server's tools join the registry when it is ready. A
// file that cannot be read, and project files waiting for trust, are
// notes; a server that fails is a notice when it fails.
func (a *App) startMCP() {
	src := mcpSources(a.BaseDir, a.WorkDir, a.opts.Getenv, a.opts.TrustProject, func(plugin.DiscoverOptions) []*plugin.Plugin { return a.discover() })
	cfg := mcp.Load(src)
	for _, err := range cfg.Errors {
		a.Notes = append(a.Notes, "mcp: "+err.Error())
	}
	// The project's servers start only as `synaps trust` approved them
	// (an untrusted project's files are not even read): what is held
	// back is named in the trust note at start.
	cfg.Servers = a.filterProjectServers(cfg.Servers)
	if a.opts.StrictMCP {
		cfg.Servers = nil
	}
	for _, sv := range a.opts.MCPServers {
		cfg.Servers = slices.DeleteFunc(cfg.Servers, func(o mcp.Server) bool { return o.Name == sv.Name })
		cfg.Servers = append(cfg.Servers, sv)
	}
	if a.Permissions != nil {
		names := make([]string, len(cfg.Servers))
		for i, sv := range cfg.Servers {
			names[i] = sv.Name
		}
		a.Notes = append(a.Notes, permission.MCPWarnings(a.Permissions.Rules(), names)...)
	}
	if len(cfg.Servers) == 0 {
		return
	}
	onEvent := a.opts.OnEvent
	start, call := mcpTimeouts(a.Config)
	a.MCP = mcp.NewManager(mcp.Options{
		Registry: a.Tools, Getenv: a.opts.Getenv, WorkDir: a.WorkDir, Version: a.opts.Version,
		StartTimeout: start, CallTimeout: call, Hold: a.opts.Hold, Policy: mcpPolicy(a.sandbox, a.BaseDir, a.WorkDir, a.opts.Getenv),
		OnChange: func(st mcp.Status) {
			if st.State == mcp.StateFailed && onEvent != nil {
				onEvent(agent.Event{Type: agent.EventNotice, Text: MCPFailure(st)})
			}
		},
	})
	a.MCP.Start(cfg)
}

// MCPFailure says why a server failed, with the last lines of its stderr.
func MCPFailure(st mcp.Status) string {
	msg := fmt.Sprintf("MCP server %s failed: %s", st.Name, st.Err)
	if len(st.Stderr) > 0 {
		tail := st.Stderr
		if len(tail) > 5 {
			tail = tail[len(tail)-5:]
		}
		msg += "\n  stderr: " + strings.Join(tail, "\n  stderr: ")
	}
	return msg
}

// WaitMCP waits until every MCP server is ready or has failed (each is
// bounded by its start timeout). Headless runs call it before the first
// request, so the model sees every tool; the terminal UI does not.
func (a *App) WaitMCP(ctx context.Context) error {
	if a.MCP == nil {
		return nil
	}
	return a.MCP.Wait(ctx)
}

// MCPStatuses describes the MCP servers (nil when none is configured).
func (a *App) MCPStatuses() []mcp.Status {
	if a.MCP == nil {
		return nil
	}
	return a.MCP.Statuses()
}

// MCPScopeFile is synaps's own MCP file of a scope: "user" (mcp.json in
// the base directory) or "project" (.synaps/mcp.json in workDir).
func MCPScopeFile(baseDir, workDir, scope string) (string, error) {
	switch scope {
	case "user", "":
		return mcp.UserFile(baseDir), nil
	case "project":
		return mcp.ProjectFile(workDir), nil
	}
	return "", fmt.Errorf("scope %q: use user (%s) or project (%s)", scope, mcp.UserFile(baseDir), mcp.ProjectFile(workDir))
}

// MCPReport is what `synaps mcp list` shows: every configured server
// after an attempt to connect, files that could not be read, and project
// files that wait for trust.
type MCPReport struct {
	Servers   []mcp.Status
	Errors    []error
	Untrusted []string
}

// CheckMCP connects to every configured server (in parallel, each within
// its start timeout), lists their tools and stops them again. With only
// set, it checks that one server.
func CheckMCP(ctx context.Context, baseDir, workDir string, getenv func(string) string, trustProject bool, only string) (*MCPReport, error) {
	src := MCPSources(baseDir, workDir, getenv, trustProject)
	cfg := mcp.Load(src)
	rep := &MCPReport{Errors: cfg.Errors, Untrusted: src.UntrustedProjectFiles()}
	if only != "" {
		var kept []mcp.Server
		for _, s := range cfg.Servers {
			if s.Name == only {
				kept = append(kept, s)
			}
		}
		if len(kept) == 0 {
			if len(rep.Untrusted) > 0 {
				// It may well be in a project file that was not read.
				return rep, fmt.Errorf("no MCP server named %q is configured where synaps reads; the project's %s are not read until it is trusted (synaps trust, or --trust-project)", only, strings.Join(rep.Untrusted, ", "))
			}
			return rep, fmt.Errorf("no MCP server named %q is configured; `synaps mcp list` shows those that are", only)
		}
		cfg.Servers = kept
	}
	cfgFile, _ := config.Load(filepath.Join(baseDir, "config"))
	start, call := mcpTimeouts(cfgFile)
	sb := sandbox.ReadConfig(cfgFile, workDir, sandbox.Home(getenv), trustProject)
	m := mcp.NewManager(mcp.Options{Registry: tool.NewRegistry(), Getenv: getenv, WorkDir: workDir, StartTimeout: start, CallTimeout: call,
		Policy: mcpPolicy(sb, baseDir, workDir, getenv)})
	m.Start(cfg)
	m.Wait(ctx)
	rep.Servers = m.Statuses()
	m.Close()
	return rep, nil
}

// ServeMCP serves the session's tools — built-ins and every extension's —
// to one MCP client over in and out, each call through the hook chain as
// in a session. Open the App with NoMCP and NoModelOK for it.
func (a *App) ServeMCP(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	var hooks agent.Hooks
	if a.Host != nil {
		hooks = a.Host
	}
	// No permission policy: the MCP client asks its user by its own rules
	// (docs/mcp.md); the guards still judge every call.
	// With a model the agent tool runs subagents on it; without one it
	// could only fail, so it is not offered.
	cfg := agent.Config{Tools: a.Tools, Hooks: hooks, Session: a.Session, Confirmer: a.opts.Confirmer, OnEvent: a.opts.OnEvent,
		ApproveConfirms: a.opts.ApproveConfirms, RequiredGuards: a.Config.List(config.KeyRequiredGuards), Skipped: a.skippedLinks()}
	var omit []string
	if a.provider != nil {
		cfg.Provider, cfg.Model, cfg.ProviderName = a.provider, a.modelID, llm.ProviderName(a.Model)
		cfg.Price, cfg.Subagents = a.Price, a.subagents
	} else {
		omit = append(omit, agent.AgentToolName)
	}
	runner := agent.New(cfg)
	var n atomic.Int64
	return mcp.Serve(ctx, mcp.ServeOptions{
		Registry: a.Tools, Version: a.opts.Version, Omit: omit,
		// A subagent's own calls are asked of nobody here, so the client
		// must ask before it starts one.
		Delegating: []string{agent.AgentToolName},
		Call: func(ctx context.Context, name string, input json.RawMessage) tool.Result {
			return runner.CallTool(ctx, fmt.Sprintf("mcp-serve-%d", n.Add(1)), name, input)
		},
	}, in, out)
}

// formatMCP is /mcp: each server's state, file and tools; a failed one's
// error and stderr.
func (a *App) formatMCP() string {
	sts := a.MCPStatuses()
	if len(sts) == 0 {
		return "no MCP servers configured; add one with `synaps mcp add NAME -- COMMAND [ARGS...]` (see docs/mcp.md)"
	}
	var b strings.Builder
	for _, st := range sts {
		state := string(st.State)
		if st.State == mcp.StateReady {
			state = "ready, " + plural.Count(len(st.Tools), "tool")
		}
		loc := st.Source.File
		if st.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, st.Line)
		}
		fmt.Fprintf(&b, "%s (%s) · %s %s · %s\n", st.Name, state, st.Transport, st.Target, loc)
		if st.Err != "" {
			fmt.Fprintf(&b, "  error: %s\n", st.Err)
		}
		for _, l := range st.Stderr {
			fmt.Fprintf(&b, "  stderr: %s\n", l)
		}
		if len(st.Tools) > 0 {
			fmt.Fprintf(&b, "  tools: %s\n", strings.Join(st.Tools, ", "))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// mcpTimeouts are the config's mcp_startup_timeout_ms and
// mcp_tool_timeout_ms (0 when unset or unusable: cfg.Check warns).
// MCP_TIMEOUT and MCP_TOOL_TIMEOUT in the environment win over them.
func mcpTimeouts(cfg *config.File) (start, call time.Duration) {
	if cfg == nil {
		return 0, 0
	}
	start, _ = cfg.Millis(config.KeyMCPStartupTimeoutMS)
	call, _ = cfg.Millis(config.KeyMCPToolTimeoutMS)
	return start, call
}
