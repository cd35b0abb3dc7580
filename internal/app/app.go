// Package app wires synaps together: config, the extension host, tools,
// skills, the model provider and the session, into an agent. The command
// line and the TUI both start here, so a session behaves the same however
// it is driven.
package app

import (
	"github.com/synaps-cli/synaps/internal/trust"

	"context"
	"errors"
	"fmt"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/checkpoint"
	"github.com/synaps-cli/synaps/internal/command"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/skill"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// Options say how to open a session.
type Options struct {
	// Getenv reads the environment; nil: os.Getenv.
	Getenv func(string) string
	// Environ lists the environment the built-in tools start from, before
	// secrets are scrubbed; nil: os.Environ.
	Environ func() []string
	// BaseDir overrides $SYNAPS_BASE_DIR / ~/.synaps-cli.
	BaseDir string
	// WorkDir is the project directory; default the current directory.
	WorkDir string
	// Model overrides config `model` (--model).
	Model string
	// NoExtensions starts no extension (--no-extensions).
	NoExtensions bool
	// TrustProject trusts WorkDir's project plugins for this run.
	TrustProject bool
	// Continue resumes the newest session; Resume a given one.
	Continue bool
	Resume   string
	// Confirmer answers confirm actions; nil blocks them (headless).
	Confirmer hook.Confirmer
	// OnEvent receives agent events.
	OnEvent func(agent.Event)
	// OnWake, when set, hears the text a background hook wakes the model
	// with while no turn runs, to send it as a message (wakeFromHook).
	OnWake func(text string)
	// Version is synaps's version, sent to extensions.
	Version string
	// NoModelOK opens the session even when no model is configured or
	// the model does not resolve: Agent stays nil and ModelErr says why,
	// until SetModel (/model NAME) succeeds. The terminal UI uses it, so
	// that everything needing no model works without one.
	NoModelOK bool
	// Progress hears which extensions are still starting (see
	// extension.Options.Progress).
	Progress func(starting []string)
	// Background starts the extensions without waiting for them
	// (extension.Host.Begin): Open returns at once, a request waits only
	// for the extensions that may change it, and a start that fails is a
	// notice. The terminal UI sets it; -p and chat wait for every
	// extension, so their first request has every tool and the
	// start-up notes come first.
	Background bool
	// Hold, when set, keeps the extensions' and MCP servers' processes
	// from starting until it is closed (extension.Options.Hold): the
	// terminal UI closes it once its first frame is drawn.
	Hold <-chan struct{}
	// Files, when set, reads and writes text files for the built-in
	// read, write and edit tools (an editor's buffers, over ACP); nil:
	// the disk.
	Files builtin.Files
	// Terminal, when set, runs bash's commands (an editor's terminal,
	// over ACP); nil: synaps runs them.
	Terminal builtin.Terminal
	// Effort is how hard the model thinks (--effort); "" reads config
	// effort, else the model's default.
	Effort llm.Effort
	// MaxToolCalls and MaxBudgetUSD bound a whole run (--max-tool-calls,
	// --max-budget-usd; config max_tool_calls, max_budget_usd): 0 none.
	MaxToolCalls int
	MaxBudgetUSD float64
	// MaxTurns caps model requests per user message (--max-turns); 0
	// means no limit.
	MaxTurns int
	// AppendSystemPrompt is added to the end of the system prompt
	// (--append-system-prompt).
	AppendSystemPrompt string
	// SystemPrompt, when set, replaces synaps's whole system prompt
	// (--system-prompt, as Claude Code's); AppendSystemPrompt still
	// follows it.
	SystemPrompt string
	// BuiltinTools, when LimitTools is set, are the built-in tools the
	// model is offered (synaps names; --tools): the others are not
	// registered at all. Empty with LimitTools: no built-in tool.
	BuiltinTools []string
	LimitTools   bool
	// SessionID names a new session (--session-id); a session of that
	// id must not exist yet.
	SessionID string
	// AddDirs are further directories the tools work in (--add-dir):
	// absolute, existing directories. acceptEdits accepts edits there and
	// the bash sandbox lets commands write there, as in the project.
	AddDirs []string
	// ClaudeSettings are Claude Code settings given for this run
	// (--settings): their hooks join the chain after the user's.
	ClaudeSettings []ClaudeSettings
	// StrictMCP starts only MCPServers, none of the configured ones
	// (--strict-mcp-config).
	StrictMCP bool
	// MCPServers are MCP servers for this session only, beside the
	// configured ones (an editor passes them with ACP's session/new); a
	// server of the same name replaces a configured one.
	MCPServers []mcp.Server
	// NoMCP starts no MCP server.
	NoMCP bool
	// PermissionMode overrides config permission_mode (--permission-mode);
	// "" takes the config's, else default.
	PermissionMode permission.Mode
	// Allowed and Disallowed are allow and deny rules from the command
	// line (--allowedTools, --disallowedTools), on top of the configs'.
	Allowed, Disallowed []permission.Rule
	// Ask are ask rules given for this run (--settings' permissions.ask).
	Ask []permission.Rule
	// ApproveConfirms answers extensions' confirm requests with yes
	// (--auto-approve-confirms); permission questions are still asked.
	ApproveConfirms bool
	// DeferCalls: a hook's "defer" ends the run before the call,
	// resumable from it (agent.Config.DeferCalls); -p sets it.
	DeferCalls bool
	// LeavePlan says how this front-end's user leaves plan mode, for the
	// refusal plan mode gives (agent.Config.LeavePlan); "" is a
	// headless run's: the --permission-mode flag.
	LeavePlan string
}

// App is an open session with everything it needs.
type App struct {
	BaseDir, WorkDir string
	Config           *config.File
	Host             *extension.Host // nil with --no-extensions
	// claude finds the Claude Code command hooks the Host's chain runs.
	claude  *claudeHooks
	started startDiscovery // Open's one plugin discovery (discovery.go)
	style   outputStyles   // outputstyles.go
	// trust is what of the project trust lets load, item by item
	// (openTrust).
	trust *trust.State
	// env is the scrubbed environment of the tools, hooks and commands
	// synaps runs (toolEnv, computed once at Open).
	env []string
	// cp is the current session's checkpoint record (checkpoints.go).
	cpMu      sync.Mutex
	cp        *checkpoint.Store
	cpSession string
	// Commands are the slash commands: Markdown files, and the commands
	// SynapsCLI manifests declare (Command.Declared).
	Commands *command.Set
	// Help and Keys are the help entries and keybinds plugins declare.
	Help []HelpItem
	Keys []KeyBinding
	// keysMu guards Keys once the session runs (a toggle key is rebound
	// from /settings); read them with KeyBindings.
	keysMu sync.Mutex
	// side are the plugins' sidecars (sidecars.go).
	side sidecars
	// Agents are the subagent definitions found (listed by /agents).
	Agents []command.Agent
	// subagents configures the agent tool from Agents.
	subagents *agent.Subagents
	// effort is the thinking level in force (SetEffort).
	effort llm.Effort
	// MCP runs the configured MCP servers; nil when none is configured
	// or with NoMCP.
	MCP     *mcp.Manager
	Tools   *tool.Registry
	Skills  []skill.Skill
	Session *session.Session
	// Todos is the session's task list (the todo_write tool's): the TUI
	// shows it; it follows the session (restoreTodos).
	Todos *builtin.Todos
	Agent *agent.Agent // nil while there is no model (NoModelOK)
	// judge is the agent Judge decides calls with (made on first use).
	judge *agent.Agent
	// Permissions is the session's permission mode and rules.
	Permissions *permission.Policy
	Model       string
	// ModelErr says why there is no model (NoModelOK): what to configure.
	ModelErr error
	// Notes are things the user should see at start (skills that failed
	// to load, a resumed session).
	Notes []string
	// EndReason is why Close ends the session, for on_session_end
	// (hook.Event.EndReason): the terminal UI sets "prompt_input_exit";
	// empty is "other".
	EndReason string
	// OnEnding, when set, is told once when ending the session (Close)
	// takes more than a moment: what synaps waits for and how to stop.
	OnEnding func(msg string)

	opts Options
	// endBudget overrides the end-of-session budgets (hooks, stop) in
	// tests; nil: EndHookBudget and EndStopBudget.
	endBudget *[2]time.Duration
	provider  llm.Provider
	modelID   string
	// prices is the price table: built in, and config price.<model>.
	prices map[string]llm.Price
	// sandbox is the session's sandbox settings (openSandbox).
	sandbox sandbox.Config
	lsp     lspServers // plugins' language servers (lsp.go)
	// resumeID is the session --resume or --continue names (resume.go).
	resumeID string
}

// Open prepares a session: it starts the extensions (in parallel), finds
// skills, resolves the model and creates or resumes the session file.
func Open(ctx context.Context, o Options) (*App, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
		o.Getenv = getenv
	}
	base, work, cfg, err := dirsOf(o)
	if err != nil {
		return nil, err
	}
	a := &App{BaseDir: base, WorkDir: work, Config: cfg, Tools: tool.NewRegistry(), opts: o}
	a.claude = &claudeHooks{a: a}
	a.beginStart()
	defer a.endStart()
	a.openTrust()
	// A setting that would silently do nothing is said at the start.
	a.Notes = append(a.Notes, cfg.Check()...)
	if err := a.openPermissions(); err != nil {
		return nil, err
	}
	var priceWarnings []string
	a.prices, priceWarnings = priceTable(cfg)
	a.Notes = append(a.Notes, priceWarnings...)
	// The tools' environment, worked out once: built-ins, Claude hooks and
	// command !`cmd` share it, and a bad tool_env_allow entry is one note.
	a.env = a.toolEnv()
	// The policy judges each file grep, find and ls reach beyond the
	// path their call names; the bash tool's commands run in the sandbox
	// (every subagent's too: they share these tools).
	bo := builtin.Options{WorkDir: work, Env: a.bashEnv(a.env), Files: o.Files, Terminal: o.Terminal, Sandbox: a.openSandbox()}
	a.autoAllowSandboxed(bo.Sandbox)
	if a.Permissions != nil {
		bo.Gate = a.Permissions
	}
	for _, t := range append(builtin.All(bo), agent.UserTools()...) {
		if !o.offers(t.Spec().RuntimeName) {
			continue
		}
		if _, err := a.Tools.Add(a.withDiagnostics(a.recordEdits(t, work, bo.Sandbox != nil), work)); err != nil { // checkpoints.go, lsp.go
			return nil, err
		}
	}
	if err := a.openTodos(); err != nil {
		return nil, err
	}
	// Skills first: load_skill is a built-in and must own its name before
	// any extension tool is registered.
	if err := a.openSkills(); err != nil {
		return nil, err
	}
	a.openCommands()
	a.openOutputStyle()
	if err := a.openSubagents(); err != nil {
		return nil, err
	}
	a.effort = a.startEffort()
	// The session to resume is found before anything starts: a bad
	// --resume ID or a --continue with nothing to go on is said before
	// any MCP server or extension is spawned.
	if a.resumeID, err = a.resumeTarget(); err != nil {
		return nil, err
	}
	// MCP servers start first and in the background, so they connect
	// while the extensions start; nothing here waits for them.
	if !o.NoMCP {
		a.startMCP()
	}
	a.openLSP() // no server starts until an edit needs it
	if n := a.claudeUserNote(); n != "" {
		a.Notes = append(a.Notes, n)
	}
	if !o.NoExtensions {
		plugins, discoverErr := a.startPlugins()
		a.Host = extension.NewHost(extension.Options{
			Discovered: &extension.Discovery{Plugins: plugins, Err: discoverErr},
			InitCache:  true,
			Hold:       o.Hold,
			BaseDir:    base, ProjectDir: work, TrustProject: o.TrustProject, Config: cfg,
			Getenv: getenv, Version: o.Version, Registry: a.Tools, HookTimeout: hookTimeout(cfg),
			// A hung or vanished guard is news during the session, in the
			// same stream as the tool calls it concerns.
			Notify: func(msg string) {
				if o.OnEvent != nil {
					o.OnEvent(agent.Event{Type: agent.EventNotice, Text: msg})
				}
			},
			Progress: o.Progress,
			// Claude Code command hooks join the chain beside the
			// extensions, rebuilt at every start and reload.
			Links:     a.claude.table,
			PartHooks: a.claude.names,
		})
		if o.Background {
			a.Host.Begin(ctx)
		} else if err := a.Host.Start(ctx); err != nil {
			if a.MCP != nil {
				a.MCP.Close()
			}
			return nil, err
		}
		// Nothing fails silently: a plugins directory or a plugin that
		// did not load is said at the start of the session, not only in
		// /extensions list.
		for _, w := range a.Host.Warnings() {
			a.Notes = append(a.Notes, "extensions: "+w)
		}
		a.Notes = append(a.Notes, a.claude.takeWarnings()...)
		for _, st := range a.Host.Statuses() {
			if st.State == extension.StateFailed {
				a.Notes = append(a.Notes, fmt.Sprintf("extension %s failed to load: %s", st.ID, firstLine(st.Error)))
			}
			// A plugin that loaded with warnings (a hook refused for want
			// of its permission) is said too. Started in the background,
			// an extension's are said by the host when its start ends.
			if st.State == extension.StateLoaded || st.State == extension.StateDegraded {
				if o.Background && slices.Contains(st.Parts, plugin.PartExtension) {
					continue
				}
				for _, w := range st.Warnings {
					a.Notes = append(a.Notes, extension.LoadWarning(st.ID, firstLine(w)))
				}
			}
		}
	}
	// A resumed session is opened before the model is chosen: it goes
	// on with the model it recorded unless --model names another.
	if err := a.resumeSession(); err != nil {
		a.Close(ctx)
		return nil, err
	}
	model := o.Model
	var modelErr error
	recorded := model == "" && a.Session != nil && a.Session.Model() != ""
	switch {
	case recorded:
		model = a.recordedModel()
	case model == "":
		model, modelErr = DefaultModel(getenv, cfg)
	}
	if modelErr == nil {
		modelErr = a.setModel(model, !recorded)
		if modelErr == nil {
			a.goOnWithScript()
		}
		if modelErr != nil && recorded {
			modelErr = fmt.Errorf("session %s ran on model %s, which cannot be used here: %w; pass --model to go on with another", a.Session.ID, a.Session.Model(), modelErr)
		}
	}
	if modelErr != nil {
		if !o.NoModelOK {
			a.Close(ctx)
			return nil, modelErr
		}
		a.ModelErr = modelErr
	}
	if a.Session == nil {
		var err error
		if a.Session, err = session.CreateID(a.BaseDir, a.Model, a.WorkDir, o.SessionID); err != nil {
			a.Close(ctx)
			return nil, err
		}
	}
	// SetModel made the agent already when the session was resumed.
	if a.provider != nil && a.Agent == nil {
		a.newAgent()
	}
	if n := a.EffortNote(); n != "" {
		a.Notes = append(a.Notes, n)
	}
	return a, nil
}

// toolEnv is the environment of the built-in tools: synaps's own without
// the variables whose names look secret, except those config
// tool_env_allow names. A bad entry there is a note, not a silent no-op.
func (a *App) toolEnv() []string {
	environ := a.opts.Environ
	if environ == nil {
		environ = os.Environ
	}
	allow, warnings := a.Config.EnvNames(config.ToolEnvAllow)
	a.Notes = append(a.Notes, warnings...)
	env, _ := builtin.ScrubEnv(environ(), allow)
	return env
}

func hookTimeout(cfg *config.File) time.Duration {
	d, _ := cfg.HookTimeout() // a bad value is warned by cfg.Check
	return d
}

// openSkills finds skills in the project, the user's skills dir and every
// plugin, and offers load_skill when there are any.
func (a *App) openSkills() error {
	a.Skills = a.findSkills()
	if len(a.Skills) > 0 && a.opts.offers("load_skill") {
		if _, err := a.Tools.Add(&skill.LoadTool{Skills: a.Skills}); err != nil {
			return err
		}
	}
	return nil
}

// findSkills looks for skills: the project's, the user's, every enabled
// plugin's, the built-in ones; problems are notes.
func (a *App) findSkills() []skill.Skill {
	roots := []skill.Root{
		{Dir: filepath.Join(a.WorkDir, ".synaps", "skills"), Source: "project"},
		{Dir: filepath.Join(a.BaseDir, "skills"), Source: "user"},
	}
	if !a.opts.NoExtensions {
		// A plugins directory that cannot be read is said once, by the
		// extension host's warnings; the skills of the others still load.
		for _, p := range a.discover() {
			if p.Err == nil && !p.Disabled && !p.Untrusted {
				dirs, _ := p.SkillDirs() // skills/ and a Claude manifest's "skills"
				vars := a.pluginVars(p)
				for _, dir := range dirs {
					roots = append(roots, skill.Root{Dir: dir, Source: "plugin:" + p.ID, PluginRoot: vars.Root, PluginData: vars.Data})
				}
			}
		}
	}
	// Last, so a user's or plugin's skill of the same name wins.
	if dir, err := writeShipped(a.BaseDir); err != nil {
		a.Notes = append(a.Notes, fmt.Sprintf("built-in skills not available: %v", err))
	} else {
		roots = append(roots, skill.Root{Dir: dir, Source: "builtin"})
	}
	skills, problems := skill.Discover(roots)
	for _, p := range problems {
		a.Notes = append(a.Notes, fmt.Sprintf("skill not loaded: %v", p.Err))
	}
	return skills
}

// SetModel switches the model (also mid-session: /model), and the
// session records it, so that a resume goes on with it.
func (a *App) SetModel(name string) error { return a.setModel(name, true) }

// setModel is SetModel; record false leaves the session's record alone
// (a resumed session taking up the model it recorded).
func (a *App) setModel(name string, record bool) error {
	p, id, err := ResolveModel(name, a.opts.Getenv, a.Config, a.Host, a.WorkDir)
	if err != nil {
		return err
	}
	if record && a.Session != nil {
		if err := a.Session.SetModel(a.modelToRecord(name)); err != nil {
			return err
		}
	}
	a.Model, a.provider, a.modelID, a.ModelErr = name, p, id, nil
	switch {
	case a.Agent != nil:
		// The same session goes on with another model: its usage
		// and the extensions' session context stay.
		a.Agent.SetModel(p, id)
		a.Agent.SetProviderName(llm.ProviderName(name))
		if n := a.EffortNote(); n != "" {
			a.Notice(n)
		}
	case a.Session != nil:
		a.newAgent() // the first model of a session opened without one
	}
	return nil
}

// modelToRecord is name as the session records it: a script's relative
// path is read against the session's cwd on resume (recordedModel), so
// when synaps runs elsewhere it is recorded absolute.
func (a *App) modelToRecord(name string) string {
	kind, path, err := llm.ParseModel(name)
	if err != nil || kind != llm.KindScript || filepath.IsAbs(path) || session.SameDir(a.Session.Cwd(), a.WorkDir) {
		return name
	}
	return "script:" + filepath.Join(a.WorkDir, path)
}

// recordedModel is the model a resumed session recorded, as it names
// it here: a script's relative path was relative to the directory the
// session started in, so from another directory it becomes absolute.
func (a *App) recordedModel() string {
	name := a.Session.Model()
	kind, path, err := llm.ParseModel(name)
	cwd := a.Session.Cwd()
	if err != nil || kind != llm.KindScript || filepath.IsAbs(path) || cwd == "" || session.SameDir(cwd, a.WorkDir) {
		return name
	}
	return "script:" + filepath.Join(cwd, path)
}

func (a *App) newAgent() {
	a.restoreTodos()
	a.Agent = agent.New(a.agentConfig())
}

// agentConfig is the session agent's configuration: its model, prompt,
// tools, hooks, permission policy and limits. `synaps hooks test` and
// `synaps replay` judge calls with an agent made from it, so their
// verdicts are the session's.
func (a *App) agentConfig() agent.Config {
	ident, _ := a.Config.Get("identity")
	var instructions []agent.Instructions
	system := agent.SystemPrompt(agent.PromptInput{
		Identity: ident, WorkDir: a.WorkDir, BaseDir: a.BaseDir,
		SkillsIndex: skill.Index(a.Skills), Now: time.Now(), PluginContext: a.pluginContext(),
		Warn:   func(w string) { a.Notes = append(a.Notes, w) },
		Loaded: func(f agent.Instructions) { instructions = append(instructions, f) },
	})
	if a.opts.SystemPrompt != "" {
		system = a.opts.SystemPrompt + "\n"
	}
	if a.opts.AppendSystemPrompt != "" {
		system += "\n" + a.opts.AppendSystemPrompt + "\n"
	}
	system += a.outputStyleText()
	if a.Session.Summary != "" {
		system += "\n# Summary of the conversation so far\nThe earlier part of this conversation was compacted into this summary:\n\n" + a.Session.Summary + "\n"
	}
	var hooks agent.Hooks
	if a.Host != nil {
		hooks = a.Host
	}
	return agent.Config{
		Provider: a.provider, Model: a.modelID, ProviderName: llm.ProviderName(a.Model), System: system, Tools: a.Tools, Hooks: hooks,
		Session: a.Session, Confirmer: a.opts.Confirmer, OnEvent: a.opts.OnEvent, MaxTurns: a.opts.MaxTurns,
		MaxToolCalls: a.opts.MaxToolCalls, MaxCostUSD: a.opts.MaxBudgetUSD, Effort: a.effort, LeavePlan: a.opts.LeavePlan,
		Permissions: a.Permissions, ApproveConfirms: a.opts.ApproveConfirms, DeferCalls: a.opts.DeferCalls, SaveRule: a.SaveRule,
		Price: a.Price, Subagents: a.subagents, Instructions: instructions, RequiredGuards: a.Config.List(config.KeyRequiredGuards),
		Skipped: a.skippedLinks(),
	}
}

// Send is Agent.Send; a turn stopped by the user's --max-turns says so,
// naming the flag.
func (a *App) Send(ctx context.Context, text string, images ...llm.Image) error {
	if a.claude != nil {
		a.claude.newPrompt()
		a.configChanges(ctx) // configchange.go
	}
	a.checkpointPrompt(text) // checkpoints.go
	err := a.Agent.Send(ctx, text, images...)
	if errors.Is(err, agent.ErrTurnLimit) {
		return fmt.Errorf("%w: the limit set with --max-turns %d", err, a.opts.MaxTurns)
	}
	return err
}

// Reload restarts the extensions: added, removed and edited plugins are
// picked up without leaving the session.
func (a *App) Reload(ctx context.Context) error {
	if a.Host == nil {
		return errors.New("extensions are off (--no-extensions)")
	}
	err := a.Host.Reload(ctx)
	a.reloadLSP()
	for _, w := range a.claude.takeWarnings() {
		if a.opts.OnEvent != nil {
			a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: w})
		}
	}
	return err
}

// Statuses lists the plugins (nil with --no-extensions).
func (a *App) Statuses() []extension.Status {
	if a.Host == nil {
		return nil
	}
	return a.Host.Statuses()
}

// dirsOf is where a session of o lives: its base directory (o.BaseDir,
// else $SYNAPS_BASE_DIR or ~/.synaps-cli), its working directory (o.WorkDir,
// else the process's) and the config of that base. Open and the hooks
// listing (openLister) start from it alike. o.Getenv must be set.
func dirsOf(o Options) (base, work string, cfg *config.File, err error) {
	base = o.BaseDir
	if base == "" {
		if base, err = config.BaseDir(o.Getenv); err != nil {
			return "", "", nil, err
		}
	}
	work = o.WorkDir
	if work == "" {
		if work, err = os.Getwd(); err != nil {
			return "", "", nil, err
		}
	}
	cfg, err = config.Load(filepath.Join(base, "config"))
	return base, work, cfg, err
}
