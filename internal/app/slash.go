package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
)

// SlashCommands are the commands a session understands, for help and
// completion.
var SlashCommands = []struct{ Name, Help string }{
	{"/extensions list", "list plugins with status, tools and hooks"},
	{"/extensions reload", "restart every extension, picking up added, removed and edited plugins"},
	{"/extensions enable ID", "enable a plugin (saved) and reload"},
	{"/extensions disable ID", "disable a plugin (saved) and reload"},
	{"/settings [ID [KEY [VALUE]]]", "list the plugins' settings, or set one (a custom one opens its plugin's editor)"},
	{"/sidecar [ID] [toggle|status]", "toggle a plugin's sidecar (the first, without ID), or show its status; a plugin's lifecycle word (/WORD) does the same"},
	{"/hooks", "list every hook in chain order, with its status, timeout and failure policy"},
	{"/hooks toggle ID", "turn one hook off, or on again (saved in disabled_hooks), and reload the extensions"},
	{"/mcp", "list MCP servers with state, tools and the file each came from"},
	{"/model [NAME]", "list the models available, or switch to NAME for the rest of the session"},
	{"/mode [NAME]", "show the permission mode, or switch to NAME: default, acceptEdits, plan, bypassPermissions (shift+tab cycles in the TUI)"},
	{"/output-style [NAME]", "list the output styles (user, project, plugins), or switch to NAME (default: none); saved in your config"},
	{"/effort [LEVEL]", "show how hard the model thinks, or set it: off, low, medium, high, max"},
	{"/agents", "list the subagent definitions of plugins, the user and the project"},
	{"/cost", "show the session's token usage"},
	{"/compact", "summarise the conversation into a new session"},
	{"/clear", "start a new, empty session"},
	{"/rewind [N [both|code|conversation]]", "list the earlier prompts, or go back to before prompt N: its files as they were (created ones removed), the conversation, or both (esc esc in the TUI)"},
	{"/sessions", "list saved sessions"},
	{"/resume [ID]", "continue a saved session, showing its conversation (without ID: the TUI opens a picker, chat lists them)"},
	{"/context", "show what fills the context window, part by part: system prompt, instructions files, skills index, tools, messages, tool results"},
	{"/status", "show the model, provider, session, directory, permission mode, sandbox, extensions, MCP servers and trust"},
	{"/permissions [allow|ask|deny RULE | remove RULE]", "list the permission rules and where each comes from, or add one to the project's .synaps/config, or remove one"},
	{"/config [set KEY VALUE]", "show the config in force and the file each value comes from, or set a key in the user's config"},
	{"/memory [edit user|project]", "show the instructions files (AGENTS.md, CLAUDE.md) of the user and the project; edit opens one in $EDITOR (TUI)"},
	{"/init", "ask the model to look at the repository and write its instructions file (AGENTS.md, or the CLAUDE.md the project has)"},
	{"/help", "show this help"},
	{"/quit", "end the session"},
}

// SlashResult is what a slash command did.
type SlashResult struct {
	// Output is text to show the user.
	Output string
	// Quit ends the session.
	Quit bool
	// Resumed: the command switched to a saved session, whose
	// conversation a UI shows.
	Resumed bool
	// Command is a Markdown command expanded into a prompt, which the UI
	// sends with SendCommand (showing the line the user typed).
	Command *CommandPrompt
	// Edit is a file to open in the user's editor (/memory edit): the
	// TUI opens it, chat says where it is.
	Edit string
}

// IsSlash reports whether a line of input is a slash command: it starts
// with "/", and not with the path of an existing file (a file dragged
// into the terminal, see LeadingPath).
func IsSlash(line string) bool {
	if !strings.HasPrefix(strings.TrimSpace(line), "/") {
		return false
	}
	_, path := LeadingPath(line)
	return !path
}

// Slash runs one slash command.
func (a *App) Slash(ctx context.Context, line string) (SlashResult, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return SlashResult{}, nil
	}
	// A sidecar's lifecycle word comes first, as in SynapsCLI: /word or
	// /word toggle toggles it, /word status shows it; other words go to
	// the plugin command of that name.
	if id, ok := a.side.claim(strings.TrimPrefix(f[0], "/")); ok && (len(f) == 1 || f[1] == "toggle" || f[1] == "status") {
		sub := ""
		if len(f) > 1 {
			sub = f[1]
		}
		return a.slashSidecar(ctx, id, sub)
	}
	if r, ok, err := a.slashInspect(ctx, f); ok {
		return r, err
	}
	if r, ok, err := a.slashOutputStyle(f); ok {
		return r, err
	}
	switch f[0] {
	case "/sidecar":
		id, sub := "", ""
		for _, w := range f[1:] {
			if w == "toggle" || w == "status" {
				sub = w
			} else {
				id = w
			}
		}
		return a.slashSidecar(ctx, id, sub)
	case "/quit", "/exit":
		return SlashResult{Quit: true}, nil
	case "/help":
		var b strings.Builder
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, c := range SlashCommands {
			fmt.Fprintf(w, "%s\t%s\n", c.Name, c.Help)
		}
		for _, c := range a.Commands.All() {
			name := "/" + c.Qualified()
			if c.ArgumentHint != "" {
				name += " " + c.ArgumentHint
			}
			where := c.Source
			if c.Namespace != "" {
				where += ":" + c.Namespace
			}
			fmt.Fprintf(w, "%s\t%s (%s)\n", name, c.Description, where)
		}
		w.Flush()
		a.formatPluginHelp(&b)
		return SlashResult{Output: b.String()}, nil
	case "/extensions", "/ext":
		return a.slashExtensions(ctx, f[1:])
	case "/hooks":
		return a.slashHooks(ctx, f[1:])
	case "/mcp":
		return SlashResult{Output: a.formatMCP()}, nil
	case "/settings":
		return a.slashSettings(ctx, f[1:])
	case "/model":
		if len(f) == 1 {
			return SlashResult{Output: a.formatModels(ctx)}, nil
		}
		old := a.Model
		if err := a.switchModel(ctx, f[1], "command"); err != nil {
			if old == "" {
				return SlashResult{}, fmt.Errorf("/model %s: %w", f[1], err)
			}
			return SlashResult{}, fmt.Errorf("/model %s: %w; the model stays %s", f[1], err, old)
		}
		if old == "" {
			return SlashResult{Output: fmt.Sprintf("model: %s; the next request uses it", a.Model)}, nil
		}
		return SlashResult{Output: fmt.Sprintf("model: %s (was %s); the next request uses it", a.Model, old)}, nil
	case "/mode":
		return a.slashMode(f[1:])
	case "/effort":
		if len(f) == 1 {
			out := fmt.Sprintf("effort: %s (levels: off, low, medium, high, max)", EffortLabel(a.effort))
			if n := a.EffortNote(); n != "" {
				out += "\n" + n
			}
			return SlashResult{Output: out}, nil
		}
		out, err := a.SetEffort(f[1])
		if err != nil {
			return SlashResult{}, fmt.Errorf("/effort %s: %w", f[1], err)
		}
		return SlashResult{Output: out}, nil
	case "/agents":
		return SlashResult{Output: a.FormatAgents()}, nil
	case "/cost":
		return SlashResult{Output: a.formatCost()}, nil
	case "/sessions":
		list, err := session.List(a.BaseDir)
		if err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: FormatSessions(list)}, nil
	case "/resume":
		if len(f) == 1 {
			list, err := session.List(a.BaseDir)
			if err != nil {
				return SlashResult{}, err
			}
			return SlashResult{Output: FormatSessions(list) + "/resume ID continues one of them\n"}, nil
		}
		if err := a.Resume(ctx, f[1]); err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: fmt.Sprintf("resumed session %s (%s)", a.Session.ID, plural.Count(len(a.Session.Messages()), "message")), Resumed: true}, nil
	case "/rewind":
		return a.slashRewind(ctx, f[1:]) // checkpoints.go
	case "/clear":
		if err := a.NewSession(ctx); err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: "new session " + a.Session.ID}, nil
	case "/compact":
		old := a.Session.ID
		if err := a.Compact(ctx); err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: fmt.Sprintf("compacted %s into new session %s", old, a.Session.ID)}, nil
	}
	if name, args, _ := strings.Cut(strings.TrimSpace(line)[1:], " "); a.Commands != nil {
		if c, found, err := a.Commands.Resolve(name); found && err == nil && c.Declared != nil {
			return a.runDeclared(ctx, c, strings.TrimSpace(args))
		}
	}
	cp, found, err := a.ExpandCommand(ctx, line)
	if err != nil {
		return SlashResult{}, err
	}
	if found {
		return SlashResult{Command: &cp, Output: strings.Join(cp.Notes, "\n")}, nil
	}
	return SlashResult{}, fmt.Errorf("unknown command %s; /help lists the commands", f[0])
}

func (a *App) slashExtensions(ctx context.Context, args []string) (SlashResult, error) {
	sub := "list"
	if len(args) > 0 {
		sub = args[0]
	}
	switch sub {
	case "list":
		return SlashResult{Output: a.extensionsListing(ctx)}, nil
	case "reload":
		if err := a.Reload(ctx); err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: "reloaded\n" + a.extensionsListing(ctx)}, nil
	case "enable", "disable":
		if len(args) != 2 {
			return SlashResult{}, fmt.Errorf("usage: /extensions %s ID", sub)
		}
		if err := a.knownToToggle(args[1], sub == "disable"); err != nil {
			return SlashResult{}, err
		}
		if err := SetDisabled(a.BaseDir, args[1], sub == "disable"); err != nil {
			return SlashResult{}, err
		}
		cfg, err := config.Load(filepath.Join(a.BaseDir, "config"))
		if err != nil {
			return SlashResult{}, err
		}
		a.Config = cfg
		a.Host.SetConfig(cfg)
		if err := a.Reload(ctx); err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: fmt.Sprintf("%sd %s\n%s", sub, args[1], FormatStatuses(CheckPins(a.BaseDir, a.Statuses()), true))}, nil
	}
	return SlashResult{}, fmt.Errorf("unknown /extensions command %q; use list, reload, enable ID or disable ID", sub)
}

// knownToToggle refuses to disable an id no plugin of the session has,
// or to enable one that is neither a plugin nor in disabled_plugins:
// either wrote or said "done" and changed nothing, so a misspelt id
// looked handled (`synaps extensions enable|disable` refuses the same).
func (a *App) knownToToggle(id string, disable bool) error {
	for _, st := range a.Statuses() {
		if st.ID == id {
			return nil
		}
	}
	if !disable && slices.Contains(a.Config.List(config.KeyDisabledPlugins), id) {
		return nil // its plugin is gone: enabling tidies the config
	}
	return fmt.Errorf("no plugin %q in this session; /extensions list shows the plugins", id)
}

// formatModels is /model without a name: the current model and what it
// can switch to, the current one marked.
func (a *App) formatModels(ctx context.Context) string {
	var b strings.Builder
	if a.Model == "" {
		fmt.Fprintf(&b, "model: none yet — %v\n", a.NoModel())
	} else {
		fmt.Fprintf(&b, "model: %s\n", a.Model)
	}
	b.WriteString("\navailable (/model NAME switches for the rest of this session):\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	models, notes := a.Models(ctx)
	for _, m := range models {
		mark := " "
		if m.Name == a.Model {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %s\t%s\n", mark, m.Name, m.From)
	}
	w.Flush()
	for _, n := range notes {
		fmt.Fprintf(&b, "(%s)\n", n)
	}
	b.WriteString("any anthropic/<model>, openai/<model>, <plugin>:<provider>:<model> or script:FILE works too\n")
	return b.String()
}

// formatCost is /cost: the session's tokens and what they cost, the last
// request's, and the price they were counted at.
func (a *App) formatCost() string {
	if a.Agent == nil {
		return "no model yet, so no requests and no tokens; choose one with /model NAME\n"
	}
	u := a.Agent.Usage()
	var b strings.Builder
	fmt.Fprintf(&b, "session %s · model %s\n", a.Session.ID, a.Model)
	// Tokens are saved with each answer, so a resumed session counts
	// its earlier runs too; requests are this run's.
	fmt.Fprintf(&b, "usage of this session (earlier runs of a resumed one included):\nrequests: %d (this run)\n", a.Agent.Requests())
	fmt.Fprintf(&b, "input tokens: %d", u.InputTokens)
	if u.CacheReadTokens > 0 || u.CacheWriteTokens > 0 {
		fmt.Fprintf(&b, " (cache: %d read, %d written)", u.CacheReadTokens, u.CacheWriteTokens)
	}
	fmt.Fprintf(&b, "\noutput tokens: %d\n", u.OutputTokens)
	if c := FormatCost(u); c != "" {
		fmt.Fprintf(&b, "cost: %s", c)
		if u.Unpriced > 0 {
			fmt.Fprintf(&b, " and %s of a model with no price", plural.Count(u.Unpriced, "request"))
		}
		b.WriteString("\n")
	} else if _, priced := a.Price(a.modelID); priced && u.Unpriced == 0 {
		b.WriteString("cost: $0\n") // a model that costs nothing: the scripted one
	} else {
		fmt.Fprintf(&b, "cost: not counted, no price for %s\n", a.Model)
	}
	if last := a.Agent.LastUsage(); last != (llm.Usage{}) {
		fmt.Fprintf(&b, "last request: %d in (cache: %d read, %d written) / %d out", last.InputTokens, last.CacheReadTokens, last.CacheWriteTokens, last.OutputTokens)
		if c := FormatCost(last); c != "" {
			b.WriteString(" · " + c)
		}
		b.WriteString("\n")
	}
	if p, ok := a.Price(a.modelID); ok {
		fmt.Fprintf(&b, "price of %s, US dollars per million tokens: input %g, output %g, cache read %g, cache write %g (config price.%s = input=… output=… cache_read=… cache_write=… changes it)\n",
			a.Model, p.Input, p.Output, p.CacheRead, p.CacheWrite, a.modelID)
	} else {
		fmt.Fprintf(&b, "to count what %s costs, give its price in US dollars per million tokens in %s: price.%s = input=… output=… cache_read=… cache_write=…\n",
			a.Model, filepath.Join(a.BaseDir, "config"), a.modelID)
	}
	return b.String()
}

// SetDisabled adds id to or removes it from config disabled_plugins.
func SetDisabled(baseDir, id string, disabled bool) error {
	if err := plugin.CheckID(id); err != nil {
		return err
	}
	// Read and written under the config's lock: concurrent enables and
	// disables each see the one before.
	return config.Update(filepath.Join(baseDir, "config"), config.KeyDisabledPlugins, func(v string, _ bool) (string, error) {
		list := config.SplitList(v)
		has := slices.Contains(list, id)
		switch {
		case disabled && !has:
			list = append(list, id)
		case !disabled && has:
			list = slices.DeleteFunc(list, func(s string) bool { return s == id })
		}
		return strings.Join(list, ","), nil
	})
}

// NewSession ends the current session and starts an empty one.
func (a *App) NewSession(ctx context.Context) error {
	if err := a.endSession(ctx, "clear"); err != nil {
		return err
	}
	s, err := session.Create(a.BaseDir, a.Model, a.WorkDir)
	if err != nil {
		return err
	}
	a.Session = s
	if a.provider != nil {
		a.newAgent()
		a.Agent.StartAs("clear") // Claude's SessionStart source after /clear
	}
	return nil
}

// Resume ends the current session and continues the saved session id.
// The current one stays if id cannot be opened.
func (a *App) Resume(ctx context.Context, id string) error {
	id, err := session.Resolve(a.BaseDir, id)
	if err != nil {
		return fmt.Errorf("/resume: %w", err)
	}
	s, err := session.Open(a.BaseDir, id)
	if err != nil {
		return fmt.Errorf("/resume %s: %w; /sessions lists the saved sessions", id, err)
	}
	if err := a.endSession(ctx, "other"); err != nil {
		s.Close()
		return err
	}
	a.Session = s
	a.adoptRecordedModel()
	a.goOnWithScript()
	if a.provider != nil {
		if rec := a.modelToRecord(a.Model); s.Model() != rec {
			// The session records the model it goes on with, so that
			// the next resume takes it up too.
			if err := s.SetModel(rec); err != nil {
				return fmt.Errorf("/resume %s: %w", id, err)
			}
		}
		a.newAgent()
	}
	return nil
}

// adoptRecordedModel makes the session just resumed go on with the model
// it recorded, as a launch with --resume does, unless this run was given
// one (--model). A recorded model that cannot be used here is said, and
// the current one goes on.
func (a *App) adoptRecordedModel() {
	if a.opts.Model != "" || a.Session.Model() == "" {
		return
	}
	name := a.recordedModel()
	if name == a.Model {
		return
	}
	p, id, err := ResolveModel(name, a.opts.Getenv, a.Config, a.Host, a.WorkDir)
	if err != nil {
		if a.Model != "" {
			a.Notice(fmt.Sprintf("session %s ran on %s, which cannot be used here (%v); it goes on with %s", a.Session.ID, a.Session.Model(), err, a.Model))
		}
		return
	}
	a.Model, a.provider, a.modelID, a.ModelErr = name, p, id, nil
}

// endSession ends the current session: on_session_end through the
// agent, or, without a model (so without an agent), just the file.
func (a *App) endSession(ctx context.Context, reason string) error {
	if a.Agent == nil {
		return a.Session.Close()
	}
	return a.Agent.EndBecause(ctx, reason)
}

// NoModel is the error for what needs a model when there is none.
func (a *App) NoModel() error {
	if a.ModelErr != nil {
		return fmt.Errorf("%w; or choose one now with /model NAME", a.ModelErr)
	}
	return errors.New("no model: choose one with /model NAME")
}

// Compact asks the model to summarise the conversation, starts a new
// session that carries the summary and fires on_compaction.
func (a *App) Compact(ctx context.Context) error {
	if a.provider == nil {
		return a.NoModel()
	}
	msgs := a.Session.Messages()
	if len(msgs) == 0 {
		return errors.New("nothing to compact yet")
	}
	req := &llm.Request{
		Model:  a.modelID,
		System: "You summarise conversations between a user and a coding agent so the work can continue in a fresh context. Keep decisions, file paths, commands, open questions and the current task. Be concise.",
		Messages: append(msgs, llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText,
			Text: "Summarise our conversation so far for continuing it in a new session."}}}),
	}
	resp, err := a.provider.Complete(ctx, req, nil)
	if err != nil {
		return fmt.Errorf("compacting: %w", err)
	}
	var summary strings.Builder
	for _, b := range resp.Message.Content {
		if b.Type == llm.BlockText {
			summary.WriteString(b.Text)
		}
	}
	if strings.TrimSpace(summary.String()) == "" {
		return errors.New("compacting: the model returned no summary")
	}
	old := a.Session.ID
	if err := a.endSession(ctx, "other"); err != nil {
		return err
	}
	s, err := session.CreateCompacted(a.BaseDir, a.Model, a.WorkDir, old, summary.String())
	if err != nil {
		return err
	}
	a.Session = s
	a.newAgent()
	if a.Host != nil {
		data, _ := json.Marshal(map[string]any{"old_session_id": old, "new_session_id": s.ID, "message_count": len(msgs), "source": "manual"})
		// message is the summary, as SynapsCLI sends it.
		text := summary.String()
		a.Host.RunHook(ctx, hook.Event{Kind: contract.HookOnCompaction, Message: &text, SessionID: s.ID, Data: data})
	}
	return nil
}

// FormatStatuses renders /extensions list and `synaps extensions list`.
// A plugin with warnings (a refused hook, a manifest note) shows
// "loaded (1 warning)" in the table, so a half-working plugin never looks
// like a working one; verbose prints each warning under the table, and
// otherwise one line says where to read them.
func FormatStatuses(sts []extension.Status, verbose bool) string {
	if len(sts) == 0 {
		return "no plugins installed (put plugins in the base directory's plugins/: $SYNAPS_BASE_DIR/plugins, ~/.synaps-cli/plugins by default)\n"
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tVERSION\tSTATUS\tTOOLS\tHOOKS")
	warned := 0
	for _, s := range sts {
		if len(s.Warnings) > 0 {
			warned++
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", s.ID, dash(s.Version), StatusLabel(s), dash(strings.Join(s.Tools, ",")), dash(strings.Join(s.Hooks, ",")))
	}
	w.Flush()
	for _, s := range sts {
		if s.Error != "" {
			fmt.Fprintf(&b, "%s: %s\n", s.ID, s.Error)
		}
		if s.LastCrash != "" {
			fmt.Fprintf(&b, "%s: %s after a crash (%s); last: %s\n", s.ID, s.State, plural.Count(s.Restarts, "restart"), s.LastCrash)
		}
		if verbose {
			for _, warn := range s.Warnings {
				fmt.Fprintf(&b, "%s: warning: %s\n", s.ID, warn)
			}
		}
	}
	if warned > 0 && !verbose {
		fmt.Fprintf(&b, "%d %s warnings: `synaps extensions list -v` shows them, `synaps extensions info ID` one plugin's\n", warned, plural.Pick(warned, "plugin has", "plugins have"))
	}
	b.WriteString(pinNotes(sts))
	return b.String()
}

// StatusLabel is a plugin's state as users see it: "loaded", or
// "loaded (2 warnings)" when something was refused or noted.
func StatusLabel(s extension.Status) string {
	if n := len(s.Warnings); n > 0 {
		return fmt.Sprintf("%s (%s)%s%s", s.State, plural.Count(n, "warning"), pinLabel(s), formatLabel(s))
	}
	return string(s.State) + pinLabel(s) + formatLabel(s)
}

// formatLabel names another agent's plugin format (" [gemini]"); synaps's
// and Claude Code's plugins, the usual ones, are not labelled.
func formatLabel(s extension.Status) string {
	switch s.Format {
	case plugin.FormatCodex, plugin.FormatOpen, plugin.FormatGemini:
		return " [" + string(s.Format) + "]"
	}
	return ""
}

// FormatSessions renders a session list.
func FormatSessions(list []session.Info) string {
	if len(list) == 0 {
		return "no sessions yet\n"
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tMESSAGES\tMODEL\tTITLE")
	for _, s := range list {
		// The title and model are stored text: shown without escapes
		// and on one line, as the TUI's picker shows them.
		title := dash(oneLinePrintable(s.Title))
		switch {
		case s.Error != "":
			title = "[unreadable: " + oneLinePrintable(s.Error) + "]"
		case s.Damaged > 0:
			title += fmt.Sprintf(" [damaged: %s skipped; `synaps sessions show %s` says which]", plural.Count(s.Damaged, "line"), s.ID)
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", oneLinePrintable(s.ID), s.Messages, dash(oneLinePrintable(s.Model)), title)
	}
	w.Flush()
	return b.String()
}

// oneLinePrintable is s for one cell of a table: agent.Printable (no
// escape sequences or control characters), tabs and line breaks as
// spaces.
func oneLinePrintable(s string) string {
	return strings.Join(strings.Fields(agent.Printable(s)), " ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// slashMode shows the permission mode or switches it (/mode NAME).
func (a *App) slashMode(args []string) (SlashResult, error) {
	if a.Permissions == nil {
		return SlashResult{}, errors.New("/mode: this session has no permission policy")
	}
	if len(args) == 0 {
		m := a.Permissions.Mode()
		return SlashResult{Output: fmt.Sprintf("permission mode: %s (%s); /mode NAME switches: default, acceptEdits, plan, bypassPermissions", m, m.Describe())}, nil
	}
	m, err := permission.ParseMode(args[0])
	if err != nil {
		return SlashResult{}, fmt.Errorf("/mode: %v", err)
	}
	old := a.Permissions.Mode()
	a.Permissions.SetMode(m)
	return SlashResult{Output: fmt.Sprintf("permission mode: %s (%s; was %s)", m, m.Describe(), old)}, nil
}
