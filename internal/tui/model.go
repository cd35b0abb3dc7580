package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/daemon"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
)

// Timing of the UI.
const (
	// quitWindow: a second ctrl+c on an empty idle prompt within it quits.
	quitWindow = 2 * time.Second
	// healthEvery is how often the status line re-reads extension health
	// (crashes and restarts happen between turns too).
	healthEvery = 2 * time.Second
	// inputMaxHeight is the most rows the input grows to.
	inputMaxHeight = 8
	// matchesShown is the most slash completions listed under the input.
	matchesShown = 8
	// resizeSettle is how long the size must stay put before the
	// transcript is printed again for it.
	resizeSettle = 150 * time.Millisecond
	// idleNotifyAfter is how long an answer waits for the user before
	// on_notification says synaps is waiting (Claude Code's idle_prompt).
	idleNotifyAfter = 60 * time.Second
)

// placeholder is what the empty input says.
const placeholder = "Ask anything · / for commands · alt+enter or ctrl+j for a newline"

// keysHelp is appended to /help.
const keysHelp = `
keys (docs/keys.md):
  enter             send; while a turn runs, words join it at its next step (steering), commands are queued
  esc               interrupt the running turn
  ctrl+c            clear the input, else interrupt; twice on an empty prompt quit
  alt+enter ctrl+j  a new line (or \ then enter)
  up/down           input history, kept per project
  tab               complete /commands and @paths
  ctrl+o            the last collapsed tool output in full
  ctrl+g            edit the input in $EDITOR
  ctrl+d            twice on an empty prompt quit
  @path             attach a file · !command run it; its output goes with the next message`

// Messages the program receives besides Bubble Tea's own.
type (
	// eventMsg is an agent event.
	eventMsg struct{ ev agent.Event }
	// confirmMsg asks the user to allow a tool call; reply gets the answer.
	confirmMsg struct {
		tool     string
		messages []hook.Confirm
		// always is the allow rule an "a" answer saves; "" when always
		// is not on offer.
		always string
		// agent names the subagent whose call it is; "" for the main
		// loop's.
		agent string
		reply chan<- agent.Answer
	}
	// workDoneMsg ends a worker: a turn or a slash command.
	workDoneMsg struct {
		out     string        // text to print (slash output)
		history []llm.Message // a resumed session's conversation, to print
		shell   *shellRun     // a !command that ran
		err     error
		quit    bool
		state
	}
	// printedMsg: the last print reached the terminal.
	printedMsg struct{}
	// healthMsg: time to refresh extension health.
	healthMsg struct{}
	// interruptMsg is SIGINT; shutdownMsg the Run context ending.
	interruptMsg struct{}
	shutdownMsg  struct{}
	// disarmMsg: the window for a second ctrl+c has passed.
	disarmMsg struct{}
	// editedMsg: the editor (ctrl+g) exited.
	editedMsg struct {
		path, editor string
		err          error
	}
	// resizedMsg: the n-th resize has had time to settle.
	resizedMsg struct{ n int }
	// openedMsg: the session is open (or failed to open).
	openedMsg struct {
		hs  *host.Session
		err error
	}
	// progressMsg: these extensions are still starting.
	progressMsg struct{ starting []string }
	// idleMsg: idleAfter has passed since the seq-th answer or key.
	idleMsg struct{ seq int }
)

// state is what the status line and completion show of the app, read by
// a worker after its work so the UI never reads the app while it is busy.
type state struct {
	model  string
	usage  llm.Usage
	health string
	ids    []string
	// commands are the Markdown slash commands, as /help names them.
	commands []struct{ Name, Help string }
}

// readState reads the app; call it only where no worker runs, or from
// the worker itself.
func readState(a *app.App) state {
	sts := a.Statuses()
	ids := make([]string, len(sts))
	for i, s := range sts {
		ids[i] = s.ID
	}
	s := state{model: a.Model, health: app.HealthLine(sts), ids: ids}
	if e := a.Effort(); e != "" && a.Model != "" {
		s.model += " (effort " + string(e) + ")" // /effort sets it
	}
	bare := map[string]int{}
	for _, c := range a.Commands.All() {
		bare[c.Name]++
	}
	for _, c := range a.Commands.All() {
		name := "/" + c.Qualified()
		if c.Declared != nil && bare[c.Name] == 1 && !app.IsBuiltinSlash(c.Name) {
			name = "/" + c.Name // unique: the bare name reaches it
		}
		if c.ArgumentHint != "" {
			name += " [ARGS]"
		}
		s.commands = append(s.commands, struct{ Name, Help string }{name, c.Description})
		if c.Declared != nil {
			for _, sub := range c.Declared.Subcommands {
				s.commands = append(s.commands, struct{ Name, Help string }{name + " " + sub, c.Description})
			}
		}
	}
	s.commands = append(s.commands, a.SidecarCommands()...)
	if a.Agent != nil {
		s.usage = a.Agent.Usage()
	}
	return s
}

// prompt is a question the input answers instead of sending a message.
type prompt int

const (
	promptNone    prompt = iota
	promptConfirm        // a tool call waits for [y/N]
	promptTrust          // trust this project's plugins? [y/N]
)

// running is a tool call in progress.
type running struct {
	call  agent.ToolCall
	start time.Time
}

type model struct {
	ctx context.Context // Run's; work contexts derive from it
	// hs is the session, owned by a host as every front-end's is; app is
	// its app, touched only here when idle, or by the worker. Both nil
	// until the session is open (opening).
	hs       *host.Session
	app      *app.App
	opening  bool
	starting []string // extensions still starting (at open, and on reload)
	br       *bridge
	st       styles
	environ  []string // the session's environment ($EDITOR …)
	profile  colorprofile.Profile
	md       markdownView

	// wg counts workers; cancel stops the running one (nil when idle).
	wg     *sync.WaitGroup
	cancel context.CancelFunc
	busy   string // what the worker does ("" when idle), for the status line

	width, height int
	input         textarea.Model
	spin          spinner.Model
	hist          history
	cands         []candidate
	state         state

	// The turn in progress.
	stream strings.Builder // the answer so far, raw
	// doneText is stream's finished blocks (its first doneLen bytes)
	// rendered for doneWidth, kept while the open block grows.
	doneText           string
	doneLen, doneWidth int
	thinking           strings.Builder
	tools              []running

	// The open question, if any.
	asking  prompt
	confirm *confirmMsg
	// kids are the subagents running, in the order they started.
	kids      []*kid
	untrusted int
	draft     string // the input put aside while a question is answered

	// quitArmed is when ctrl+c or ctrl+d (quitKey) was pressed on an
	// empty idle prompt: a second press within quitWindow quits.
	// interrupted: the running work was told to stop.
	quitArmed time.Time
	quitKey   string
	// link is the session daemon's, when this UI runs inside it (see
	// detach.go); linkBusy is the busy state last told to it.
	link        *daemon.Link
	linkBusy    bool
	interrupted bool

	// retry is the provider's retry in progress, if any.
	retry *retryState

	// shellContext is what !commands printed, for the next message.
	shellContext []string

	// collapsed is the last tool call whose output was cut, for ctrl+o.
	collapsed *agent.ToolCall

	// queue holds what the user sent while work ran, oldest first.
	queue []string
	// turn: the running work is a model turn, which takes steering.
	// steering is the text sent into it (agent.Agent.Steer) that has not
	// joined it yet, oldest first; EventSteer says when one did.
	turn     bool
	steering []string
	// attached are pictures and PDFs /attach added for the next message.
	attached []llm.Image
	// pick is the session picker /resume opens; nil when closed.
	pick *picker
	// settings is the /settings screen while it is open, nil otherwise.
	settings *settingsScreen

	// The transcript: entries[:printed] are on the terminal; the rest
	// wait while a print is in flight, so that lines reach the terminal
	// in order. redraw: print it all again (the terminal was resized).
	entries  []entry
	printed  int
	printing bool
	redraw   bool
	quitting bool

	// viewRows is how many rows the view took when last drawn;
	// sized: the terminal's size is known; resizes counts size changes,
	// so that only the last of a burst redraws.
	viewRows int
	sized    bool
	resizes  int
	// idleSeq counts answers and key presses: an idleMsg of an older
	// count is stale (the user typed, or another turn ran). idleAfter is
	// how long an answer waits unread before on_notification says so.
	idleSeq   int
	idleAfter time.Duration
}

func newModel(ctx context.Context, hs *host.Session, br *bridge, profile colorprofile.Profile, environ []string) *model {
	var a *app.App
	if hs != nil {
		a = hs.App()
	}
	m := &model{
		ctx: ctx, hs: hs, app: a, br: br, st: newStyles(), profile: profile,
		wg: &sync.WaitGroup{}, width: 80, height: 24, opening: a == nil, idleAfter: idleNotifyAfter,
	}
	m.environ = environ
	m.md.style = markdownStyle(profile, environ)
	m.md.chosen = m.md.style != markdownDefault
	if a != nil {
		m.state = readState(a)
	}
	m.cands = defaultCandidates(m.state)

	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Placeholder = placeholder
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = inputMaxHeight
	ta.CharLimit = 0
	ta.MaxWidth = 0
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("alt+enter", "ctrl+j", "shift+enter"))
	s := textarea.DefaultDarkStyles()
	s.Focused.CursorLine = lipgloss.NewStyle()
	s.Focused.Prompt = m.st.accent
	s.Focused.Placeholder = m.st.dim
	s.Blurred.Placeholder = m.st.dim
	ta.SetStyles(s)
	ta.SetPromptFunc(2, func(pi textarea.PromptInfo) string {
		if pi.LineNumber == 0 {
			return "› "
		}
		return "  "
	})
	ta.SetWidth(m.width)
	ta.Focus()
	m.input = ta

	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(m.st.accent))
	return m
}

func (m *model) Init() tea.Cmd {
	health := tea.Tick(healthEvery, func(time.Time) tea.Msg { return healthMsg{} })
	// The terminal's background picks the markdown theme (light/dark).
	if m.opening {
		return tea.Batch(m.spin.Tick, health, tea.RequestBackgroundColor)
	}
	m.greet()
	return tea.Batch(m.flush(), health, tea.RequestBackgroundColor)
}

// header is the transcript's first line.
func (m *model) header(version string) string {
	quit := "ctrl+c twice quits"
	if m.link != nil {
		quit = "ctrl+d twice detaches (the session goes on)"
	}
	return m.st.accent.Render("synaps") + m.st.dim.Render(" "+version+" · esc interrupts · "+quit+" · /help · docs/keys.md")
}

// opened takes the open session, greets, and runs what was typed
// while it opened.
func (m *model) opened(msg openedMsg) tea.Cmd {
	// The extensions may still be starting (app.Options.Background):
	// m.starting keeps what progressMsg said until they are all up.
	m.opening = false
	if msg.err != nil {
		return m.quit() // Run returns the error; the command line prints it
	}
	m.hs, m.app = msg.hs, msg.hs.App()
	m.state = readState(m.app)
	m.cands = defaultCandidates(m.state)
	m.greet()
	return m.next()
}

// greet prints what the user should know as the session starts: notes,
// the earlier conversation of a resumed session, how to configure a
// model if there is none; and asks to trust the project's plugins.
func (m *model) greet() {
	m.hist.open(historyFile(m.app.BaseDir, m.app.WorkDir))
	for _, n := range m.app.Notes {
		m.print(m.st.dim.Render("· " + sanitize(n)))
	}
	if msgs := m.app.Session.Messages(); len(msgs) > 0 {
		m.printHistory(msgs)
	}
	if m.app.Agent == nil {
		m.print(m.st.warn.Render("· ") + sanitize(m.app.NoModel().Error()))
	}
	if n := app.UntrustedCount(m.app.Statuses()); n > 0 {
		m.untrusted = n
		m.ask(promptTrust)
	}
}

// Update handles msg, then prints whatever it queued.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if r, ok := msg.(remoteInputMsg); ok && !m.quitting {
		cmd = m.remoteInput(r.text)
	} else {
		cmd = m.update(msg)
	}
	if m.link != nil {
		m.noteBusy()
	}
	return m, tea.Batch(cmd, m.flush())
}

func (m *model) update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(printedMsg); ok {
		m.printing = false
		return nil
	}
	if m.quitting {
		return nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		changed := m.sized && (msg.Width != m.width || msg.Height != m.height)
		m.width, m.height, m.sized = msg.Width, msg.Height, true
		m.input.SetWidth(msg.Width)
		if !changed {
			return nil
		}
		// Dragging a window edge sends a burst of sizes: redraw once
		// it settles.
		m.resizes++
		n := m.resizes
		return tea.Tick(resizeSettle, func(time.Time) tea.Msg { return resizedMsg{n} })
	case resizedMsg:
		if msg.n == m.resizes {
			m.redraw = true
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return cmd
	case eventMsg:
		return m.event(msg.ev)
	case confirmMsg:
		m.confirm = &msg
		m.ask(promptConfirm)
		return nil
	case workDoneMsg:
		return m.workDone(msg)
	case openedMsg:
		return m.opened(msg)
	case editedMsg:
		m.edited(msg)
		return nil
	case tea.BackgroundColorMsg:
		m.md.follow(msg.IsDark())
		return nil
	case progressMsg:
		m.starting = msg.starting
		return nil
	case idleMsg:
		m.idle(msg)
		return nil
	case spinner.TickMsg:
		if m.busy == "" && !m.opening {
			return nil // let the tick chain end
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case healthMsg:
		if m.busy == "" && m.app != nil {
			m.state.health = app.HealthLine(m.app.Statuses())
		}
		return tea.Tick(healthEvery, func(time.Time) tea.Msg { return healthMsg{} })
	case interruptMsg:
		return m.ctrlC()
	case disarmMsg:
		if !m.quitArmed.IsZero() && time.Since(m.quitArmed) >= quitWindow {
			m.quitArmed = time.Time{}
		}
		return nil
	case shutdownMsg:
		return m.quit()
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg) // cursor blink and the like
	return cmd
}

func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	m.idleSeq++ // the user is here: no idle notification
	if m.pick != nil {
		return m.pickKey(k)
	}
	if m.settings != nil {
		return m.settingsKey(k)
	}
	switch k.String() {
	case "ctrl+c":
		return m.ctrlC()
	case "esc":
		return m.esc()
	case "ctrl+g":
		if m.asking == promptNone {
			return m.openEditor()
		}
		return nil
	case "shift+tab":
		// As in Claude Code: the next permission mode.
		if m.app != nil && m.app.Permissions != nil {
			m.app.Permissions.Cycle()
		}
		return nil
	case "ctrl+o":
		// As in Claude Code: the collapsed output, in full.
		if tc := m.collapsed; tc != nil {
			m.collapsed = nil
			m.printW(func(w int) string { return fullOutput(tc, m.st, w-1) })
		}
		return nil
	case "ctrl+d":
		// As ctrl+c: a stray ctrl+d (an end-of-file meant for another
		// program) must not end the session, so it asks for a second.
		// In the daemon it detaches, which never stops the work.
		if m.input.Value() == "" && (m.busy == "" || m.link != nil) && m.asking == promptNone {
			return m.armQuit("ctrl+d")
		}
	case "enter", "ctrl+m":
		if v := m.input.Value(); m.asking == promptNone && strings.HasSuffix(v, "\\") {
			// "\" then enter: a new line, as in Claude Code, for
			// terminals that send shift+enter as plain enter.
			m.input.SetValue(strings.TrimSuffix(v, "\\") + "\n")
			return nil
		}
		return m.submit()
	case "tab":
		if m.asking == promptNone {
			if v := m.input.Value(); strings.HasPrefix(v, "/") {
				if c := completeSlash(v, m.cands); c != v {
					m.input.SetValue(c)
				}
			} else if m.app != nil {
				if c, ok := completeMention(v, m.app.WorkDir); ok {
					m.input.SetValue(c)
				}
			}
		}
		return nil
	case "up":
		if m.asking == promptNone && m.input.Line() == 0 {
			if s, ok := m.hist.prev(m.input.Value()); ok {
				m.input.SetValue(s)
			}
			return nil
		}
	case "down":
		if m.asking == promptNone && m.hist.browsing() && m.input.Line() == m.input.LineCount()-1 {
			if s, ok := m.hist.next(); ok {
				m.input.SetValue(s)
			}
			return nil
		}
	}
	if kb, ok := m.pluginKey(k.String()); ok {
		return m.runPluginKey(kb)
	}
	m.quitArmed = time.Time{} // any other key disarms the second ctrl+c
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// pluginKey finds the plugin keybind bound to key (app.KeyBinding: only
// keys that clash with none of synaps's own are bound).
func (m *model) pluginKey(key string) (app.KeyBinding, bool) {
	if m.app == nil || m.asking != promptNone {
		return app.KeyBinding{}, false
	}
	for _, kb := range m.app.KeyBindings() {
		if kb.Refused == "" && kb.Name() == key {
			return kb, true
		}
	}
	return app.KeyBinding{}, false
}

// runPluginKey does what a plugin's keybind says: run a slash command
// (queued while work runs, as typed input is), put a prompt into the
// input, or run the plugin's script.
func (m *model) runPluginKey(kb app.KeyBinding) tea.Cmd {
	slash, text := kb.KeyAction()
	switch {
	case slash != "":
		m.input.SetValue(slash)
		return m.submit()
	case text != "":
		m.input.SetValue(m.input.Value() + text)
		return nil
	}
	if m.busy != "" {
		m.print(m.st.dim.Render("· " + kb.Key + " runs a script of plugin " + kb.Plugin + "; wait until the work ends"))
		return nil
	}
	a := m.app
	return m.work("running "+kb.Script, func(ctx context.Context) workDoneMsg {
		out, err := a.RunKeyScript(ctx, kb)
		return workDoneMsg{out: out, err: err}
	})
}

// ctrlC is ctrl+c (and SIGINT), as in Claude Code and pi: it takes back
// one thing at a time. At a question it answers no and interrupts the
// turn; with text typed it clears the text; while work runs it
// interrupts the work; on an empty idle prompt it arms quitting, and a
// second press within quitWindow quits. Pressed again while an
// interrupted worker is still winding down, it quits.
func (m *model) ctrlC() tea.Cmd {
	switch {
	case m.asking == promptConfirm:
		m.answerConfirm(agent.AnswerNo)
		m.interrupt()
		return nil
	case m.asking == promptTrust:
		m.input.SetValue("n")
		return m.submit()
	case m.input.Value() != "":
		m.input.Reset()
		m.hist.reset()
		m.quitArmed = time.Time{}
		return nil
	case m.busy != "" && !m.interrupted:
		m.interrupt()
		return nil
	case m.busy != "":
		return m.leave() // the interrupted work does not end: leave anyway
	}
	return m.armQuit("ctrl+c")
}

// armQuit quits when key was already pressed within quitWindow on an
// empty idle prompt; otherwise it arms quitting and says so. Only the
// same key twice quits, as in Claude Code: the hint names the key, so
// ctrl+c then ctrl+d re-arms for ctrl+d rather than quitting.
func (m *model) armQuit(key string) tea.Cmd {
	now := time.Now()
	if !m.quitArmed.IsZero() && m.quitKey == key && now.Sub(m.quitArmed) < quitWindow {
		return m.leave()
	}
	m.quitArmed, m.quitKey = now, key
	return tea.Tick(quitWindow, func(time.Time) tea.Msg { return disarmMsg{} })
}

// esc interrupts the running turn (Claude Code's Escape); at a question
// it answers no. Idle, it does nothing, so a stray escape loses nothing.
func (m *model) esc() tea.Cmd {
	switch {
	case m.asking == promptConfirm:
		m.answerConfirm(agent.AnswerNo)
		m.interrupt()
	case m.busy != "" && !m.interrupted:
		m.interrupt()
	}
	return nil
}

// interrupt cancels the running work. What it produced stays: the
// agent keeps the partial answer and finished tool results in the
// session, and the transcript keeps what was shown.
func (m *model) interrupt() {
	if m.cancel == nil || m.interrupted {
		return
	}
	m.interrupted = true
	m.busy = "interrupting"
	// What has not reached the model comes back before the turn stops,
	// so that the host does not send it as a message of its own.
	m.unqueue()
	m.cancel()
}

// quit ends the program once everything queued is printed.
func (m *model) quit() tea.Cmd {
	if m.asking == promptConfirm {
		m.answerConfirm(agent.AnswerNo)
	}
	if m.cancel != nil {
		m.cancel()
	}
	m.flushTurn()
	m.quitting = true
	return nil
}

// stopWork cancels a running worker and waits for it; Run calls it after
// the program has ended.
func (m *model) stopWork() {
	if m.cancel != nil {
		m.cancel()
	}
	m.wg.Wait()
}

// submit handles enter: answer the open question, or send the input.
func (m *model) submit() tea.Cmd {
	text := m.input.Value()
	switch m.asking {
	case promptConfirm:
		m.answerConfirm(confirmAnswer(text, m.confirm != nil && m.confirm.always != ""))
		return nil
	case promptTrust:
		m.endAsk()
		m.print(m.st.warn.Render(m.trustQuestion()) + " " + oneLine(text, 20))
		if !yes(text) {
			m.print(m.st.dim.Render("· project plugins stay off; trust the project later with `synaps trust` and /extensions reload"))
			return m.next() // what was typed during the start
		}
		return m.startTrust()
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	m.hist.add(text)
	m.input.Reset()
	if m.busy != "" || m.opening {
		if cmd := strings.TrimSpace(text); cmd == "/quit" || cmd == "/exit" {
			return m.leave()
		}
		if m.steerable(text) && m.hs.Join(text) {
			// Steering: the text joins the running turn at its next
			// model request, after the tool results in flight.
			m.steering = append(m.steering, text)
			return nil
		}
		// Queued, as in Claude Code: it runs when the work ends.
		m.queue = append(m.queue, text)
		return nil
	}
	if strings.TrimSpace(text) == "/settings" && m.app != nil {
		m.settings = newSettingsScreen(m.app.SettingsValues())
		return nil
	}
	if strings.TrimSpace(text) == "/resume" && m.app != nil {
		if infos, err := session.List(m.app.BaseDir); err == nil && len(infos) > 0 {
			m.pick = newPicker(infos, m.width)
			return nil
		}
	}
	return m.run(text)
}

// pickKey handles a key while the session picker (/resume) is open: Enter
// resumes the chosen session as `/resume ID` would, Esc closes it.
func (m *model) pickKey(k tea.KeyPressMsg) tea.Cmd {
	m.pick.Update(k)
	if !m.pick.ended {
		return nil
	}
	id := m.pick.chosen
	m.pick = nil
	if id == "" {
		return nil
	}
	return m.run("/resume " + id)
}

// run starts what the user sent: a slash command or a message.
func (m *model) run(text string) tea.Cmd {
	m.print(m.userLines(text))
	if app.IsSlash(text) {
		return m.startSlash(strings.TrimSpace(text))
	}
	if cmd, ok := strings.CutPrefix(strings.TrimSpace(text), "!"); ok && strings.TrimSpace(cmd) != "" {
		return m.startShell(strings.TrimSpace(cmd))
	}
	return m.startTurn(text)
}

// startShell runs a !command in a worker; its output goes to the model
// with the next message.
func (m *model) startShell(command string) tea.Cmd {
	dir := m.app.WorkDir
	return m.work("running "+oneLine(command, 40), func(ctx context.Context) workDoneMsg {
		out, status := runShell(ctx, command, dir)
		return workDoneMsg{shell: &shellRun{command: command, output: out, status: status}}
	})
}

// steerable reports whether text typed now can join the running turn:
// plain words to a turn, with nothing queued before them. A slash
// command, a !command, an @file or /attach'd files wait in the queue.
func (m *model) steerable(text string) bool {
	t := strings.TrimSpace(text)
	return m.turn && !m.interrupted && len(m.queue) == 0 && len(m.attached) == 0 && len(m.shellContext) == 0 &&
		!app.IsSlash(t) && !strings.HasPrefix(t, "!") && !mentionRE().MatchString(t) && !pastedImageRE().MatchString(t)
}

// steered shows text that joined the running turn as the user's words,
// marked steered.
func (m *model) steered(text string) {
	for i, s := range m.steering {
		if s == text {
			m.steering = append(m.steering[:i], m.steering[i+1:]...)
			break
		}
	}
	m.print(m.userLines(text) + m.st.dim.Render("  · steered into the turn"))
}

// next starts the oldest queued input, if any.
func (m *model) next() tea.Cmd {
	if len(m.queue) == 0 || m.quitting || m.busy != "" || m.opening || m.asking != promptNone {
		return nil
	}
	text := m.queue[0]
	m.queue = m.queue[1:]
	return m.run(text)
}

// unqueue puts queued inputs back into the input, before what is typed
// there, so that an interrupt runs nothing the user did not see coming
// and loses nothing they typed.
func (m *model) unqueue() {
	if m.turn && m.hs != nil {
		// Steering that has not joined the turn yet comes back too.
		taken := m.hs.Unsteer()
		m.steering = nil
		m.queue = append(taken, m.queue...)
	}
	if len(m.queue) == 0 {
		return
	}
	parts := append(m.queue, m.input.Value())
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	m.queue = nil
	m.input.SetValue(strings.Join(parts, "\n"))
}

// confirmAnswer reads the answer to a confirm: y or yes runs the call,
// a or always (when offered) runs it and saves the rule, anything else
// does not run it.
func confirmAnswer(s string, alwaysOffered bool) agent.Answer {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes":
		return agent.AnswerYes
	case "a", "always":
		if alwaysOffered {
			return agent.AnswerAlways
		}
	}
	return agent.AnswerNo
}

func yes(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == "y" || s == "yes"
}

// ask opens a question, putting the input aside.
func (m *model) ask(p prompt) {
	if m.asking == promptNone {
		m.draft = m.input.Value()
	}
	m.asking = p
	m.input.Reset()
	m.input.Placeholder = "y or n, then enter"
	if p == promptConfirm && m.confirm != nil && m.confirm.always != "" {
		// Every answer the question offers, as its [y/N/a …] says.
		m.input.Placeholder = "y, n or a (always), then enter"
	}
}

// endAsk closes the question and gives the input back.
func (m *model) endAsk() {
	m.asking = promptNone
	m.input.Placeholder = placeholder
	m.input.SetValue(m.draft)
	m.draft = ""
}

func (m *model) answerConfirm(ans agent.Answer) {
	c := m.confirm
	m.confirm = nil
	m.endAsk()
	if c == nil {
		return
	}
	c.reply <- ans // buffered: never blocks
	verdict := m.st.bad.Render("denied")
	switch ans {
	case agent.AnswerYes:
		verdict = m.st.ok.Render("allowed")
	case agent.AnswerAlways:
		verdict = m.st.ok.Render("allowed, always: " + c.always)
	}
	for _, cm := range c.messages {
		m.print(m.st.warn.Render("? "+cm.Extension+": ") + oneLine(cm.Message, 200))
	}
	m.print("  " + c.tool + " " + verdict)
}

// startTurn sends text to the agent in a worker.
func (m *model) startTurn(text string) tea.Cmd {
	if m.app.Agent == nil {
		m.print(m.st.bad.Render("error: ") + sanitize(m.app.NoModel().Error()))
		return m.next()
	}
	text, images, notes, refused := attachMentions(text, m.app.WorkDir, m.app.Model)
	for _, n := range notes {
		m.print(m.st.dim.Render("· " + sanitize(n)))
	}
	images = append(m.attached, images...)
	m.attached = nil
	if refused == "" {
		refused = refusal(m.app.Model, m.pendingNames(images))
	}
	if refused != "" {
		m.print(m.st.bad.Render("error: ") + sanitize(refused))
		return m.next()
	}
	if len(m.shellContext) > 0 {
		text = strings.Join(m.shellContext, "\n\n") + "\n\n" + text
		m.shellContext = nil
	}
	cmd := m.work("thinking", func(ctx context.Context) workDoneMsg {
		return workDoneMsg{err: m.hs.Run(ctx, host.Input{Text: text, Images: images})}
	})
	m.turn = true
	return cmd
}

// pendingNames names attached files for a refusal: PDFs attached with
// /attach have no name left but their kind.
func (m *model) pendingNames(images []llm.Image) []attachment {
	out := make([]attachment, len(images))
	for i := range images {
		out[i] = attachment{name: "an attached file", im: &images[i]}
	}
	return out
}

// attach is /attach PATH: the file goes with the next message, as an
// @mention would take it.
func (m *model) attach(path string) {
	abs := expandHome(path)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(m.app.WorkDir, abs)
	}
	im, file, note := attachFile(path, abs, m.app.WorkDir)
	switch {
	case im != nil:
		m.attached = append(m.attached, *im)
		m.print(m.st.dim.Render("· " + sanitize(note) + "; it goes with your next message"))
	case file != "":
		m.print(m.st.dim.Render("· " + path + " is text: mention it as @" + path + " in your message to attach it"))
	default:
		m.print(m.st.bad.Render("error: ") + sanitize(note))
	}
}

// startSlash runs a slash command in a worker.
func (m *model) startSlash(line string) tea.Cmd {
	if rest, ok := strings.CutPrefix(line, "/attach"); ok && (rest == "" || rest[0] == ' ') {
		if p := strings.TrimSpace(rest); p != "" {
			m.attach(p)
		} else {
			m.print(m.st.bad.Render("error: ") + "usage: /attach PATH (a picture or a PDF, sent with your next message)")
		}
		return m.next()
	}
	return m.work("running "+strings.Fields(line)[0], func(ctx context.Context) workDoneMsg {
		res, err := m.hs.Slash(ctx, line)
		out := res.Output
		if err == nil && res.Command != nil {
			// A Markdown command: its prompt is this turn's message.
			for _, n := range res.Command.Notes {
				m.app.Notice(n)
			}
			return workDoneMsg{err: m.hs.Run(ctx, host.Input{Command: res.Command})}
		}
		if err == nil && strings.Fields(line)[0] == "/help" {
			out = strings.TrimRight(out, "\n") + "\n" + keysHelp
		}
		msg := workDoneMsg{out: out, err: err, quit: res.Quit}
		if res.Resumed {
			msg.history = m.app.Session.Messages()
		}
		return msg
	})
}

// startTrust trusts the project and reloads the extensions.
func (m *model) startTrust() tea.Cmd {
	a, hs := m.app, m.hs
	return m.work("trusting the project", func(ctx context.Context) workDoneMsg {
		if _, err := app.Trust(a.BaseDir, a.WorkDir); err != nil {
			return workDoneMsg{err: err}
		}
		res, err := hs.Slash(ctx, "/extensions reload")
		return workDoneMsg{out: "trusted " + a.WorkDir + "\n" + res.Output, err: err}
	})
}

// work runs fn in a worker goroutine; its result arrives as workDoneMsg.
func (m *model) work(label string, fn func(context.Context) workDoneMsg) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.busy, m.cancel, m.interrupted, m.quitArmed = label, cancel, false, time.Time{}
	a, br := m.app, m.br
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cancel()
		msg := fn(ctx)
		msg.state = readState(a)
		br.send(msg)
	}()
	return m.spin.Tick
}

func (m *model) workDone(msg workDoneMsg) tea.Cmd {
	// Steering the turn ended before taking ran as messages of their own
	// (the host sends them; EventPrompt showed each).
	m.turn, m.steering = false, nil
	m.busy, m.cancel, m.interrupted, m.retry = "", nil, false, nil
	m.flushTurn()
	m.state = msg.state
	m.cands = defaultCandidates(msg.state)
	if out := strings.TrimRight(msg.out, "\n"); out != "" {
		m.print(sanitize(out))
	}
	if len(msg.history) > 0 {
		m.printHistory(msg.history)
	}
	if sh := msg.shell; sh != nil {
		tc := &agent.ToolCall{Name: "!", Input: nil, Output: sh.output, IsError: sh.status != "exit 0", Duration: noDuration}
		m.printW(func(w int) string {
			lines := toolLines(tc, m.st, w-1)
			lines[0] = fit(lines[0]+" "+sanitize(oneLine(sh.command, summaryMax))+m.st.dim.Render(" · "+sh.status), w-1)
			return joinLines(lines)
		})
		if _, more := preview(tc.Output, previewLines); more > 0 {
			m.collapsed = tc
		}
		m.shellContext = append(m.shellContext, fmt.Sprintf("<bash-input>%s</bash-input>\n<bash-output>%s</bash-output>", sh.command, strings.TrimRight(sh.output, "\n")))
		m.print(m.st.dim.Render("· the command and its output go to the model with your next message"))
	}
	if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
		m.print(m.st.bad.Render("error: ") + sanitize(msg.err.Error()))
	}
	if msg.quit {
		return m.leave()
	}
	next := m.next()
	if m.busy != "" || m.app == nil || m.app.Agent == nil {
		return next
	}
	// Idle now: if the user does not come back, a notifier hears it.
	m.idleSeq++
	seq := m.idleSeq
	return tea.Batch(next, tea.Tick(m.idleAfter, func(time.Time) tea.Msg { return idleMsg{seq} }))
}

// idle fires on_notification (idle_prompt) when nothing happened since
// the answer the tick was set for, and says whether it did.
func (m *model) idle(msg idleMsg) bool {
	if msg.seq != m.idleSeq || m.busy != "" || m.asking != promptNone || m.app == nil || m.app.Agent == nil {
		return false
	}
	m.app.Agent.Notify(m.ctx, "idle_prompt", "synaps is waiting for your input")
	return true
}

// flushTurn prints what is left of an interrupted turn: the partial
// answer and tool calls that never reported an end.
func (m *model) flushTurn() {
	if s := strings.TrimSpace(m.stream.String()); s != "" {
		// Laid out as a finished answer is (EventMessage).
		text := sanitize(s)
		m.printW(func(w int) string { return m.md.render(text, w) })
	}
	m.stream.Reset()
	m.doneLen = 0
	m.thinking.Reset()
	for _, r := range m.tools {
		m.print(m.st.bad.Render("✗ ") + m.st.tool.Render(r.call.Name) + " " + inputSummary(r.call.Name, r.call.Input) + m.st.dim.Render(" · interrupted"))
	}
	m.tools = nil
}

func (m *model) event(ev agent.Event) tea.Cmd {
	if ev.Subagent != nil {
		m.kidEvent(ev)
		return nil
	}
	if ev.Type != agent.EventRetry && ev.Type != agent.EventNotice {
		m.retry = nil // the model answers again
	}
	switch ev.Type {
	case agent.EventText:
		m.stream.WriteString(ev.Text)
	case agent.EventThinking:
		m.thinking.WriteString(ev.Text)
	case agent.EventMessage:
		text, thinking := messageText(ev.Message)
		if thinking = strings.TrimSpace(thinking); thinking != "" {
			lines, more := preview(thinking, previewLines)
			if more > 0 {
				lines = append(lines, "… "+plural.Count(more, "more line"))
			}
			m.print(m.st.dim.Render("thinking: " + strings.Join(lines, "\n          ")))
		}
		if strings.TrimSpace(text) != "" {
			text = sanitize(text)
			m.printW(func(w int) string { return m.md.render(text, w) })
		}
		m.stream.Reset()
		m.doneLen = 0
		m.doneLen = 0
		m.thinking.Reset()
	case agent.EventToolStart:
		m.tools = append(m.tools, running{call: *ev.Tool, start: time.Now()})
	case agent.EventToolEnd:
		for i, r := range m.tools {
			if r.call.ID == ev.Tool.ID {
				m.tools = append(m.tools[:i], m.tools[i+1:]...)
				break
			}
		}
		tc := ev.Tool
		m.printW(func(w int) string { return joinLines(toolLines(tc, m.st, w-1)) })
		if _, more := preview(tc.Output, previewLines); more > 0 || diffCollapsed(tc) {
			m.collapsed = tc
		}
	case agent.EventTurnEnd:
		m.state.usage.InputTokens += ev.Usage.InputTokens
		m.state.usage.OutputTokens += ev.Usage.OutputTokens
	case agent.EventRetry:
		// One line, updated in place, not a line per attempt.
		m.retry = &retryState{until: time.Now().Add(ev.Delay), why: retryReason(ev.Err), n: ev.Retry, of: ev.Retries}
	case agent.EventNotice:
		if ev.Text == agent.NoticeCancelled {
			// The partial answer comes first, as it was said before
			// the turn stopped.
			m.flushTurn()
		}
		m.print(m.st.dim.Render("· " + sanitize(ev.Text)))
	case agent.EventSteer:
		m.steered(ev.Text)
	case host.EventPrompt:
		// Steering the turn finished before taking is its own message
		// now: shown as the user's, as if sent after the answer.
		for i, q := range m.steering {
			if q == ev.Text {
				m.steering = append(m.steering[:i], m.steering[i+1:]...)
				break
			}
		}
		m.print(m.userLines(ev.Text))
	case agent.EventOutput:
		// A plugin command's output, as it streams.
		switch ev.Stream {
		case "insert":
			// Text a sidecar produced (dictation): it goes into the
			// input, for the user to edit and send.
			v := m.input.Value()
			if v != "" && !strings.HasSuffix(v, " ") && !strings.HasSuffix(v, "\n") {
				v += " "
			}
			m.input.SetValue(v + sanitize(ev.Text))
		case "error":
			m.print(m.st.bad.Render("error: ") + sanitize(ev.Text))
		case "system", "task":
			m.print(m.st.dim.Render(sanitize(ev.Text)))
		default:
			m.print(sanitize(ev.Text))
		}
	case agent.EventInject:
		// Injected context never reaches the model unseen.
		where := "your message"
		if ev.Where == "system" {
			where = "the system prompt"
		}
		m.print(m.st.dim.Render("· context added to " + where + " by " + sanitize(ev.Text)))
	}
	return nil
}

// userLines is how the user's message shows in the transcript.
func (m *model) userLines(text string) string {
	lines := strings.Split(sanitize(text), "\n")
	for i, l := range lines {
		p := "  "
		if i == 0 {
			p = "› "
		}
		lines[i] = m.st.accent.Render(p) + m.st.user.Render(l)
	}
	return "\n" + strings.Join(lines, "\n") // a blank line sets each exchange apart
}

// entry is a piece of the transcript, rendered for a terminal width.
// Entries are kept so that a resize can print the transcript again,
// laid out for the new width.
type entry func(width int) string

// print queues s for the transcript.
func (m *model) print(s string) { m.printW(func(int) string { return s }) }

// printW queues an entry whose layout depends on the width.
func (m *model) printW(e entry) { m.entries = append(m.entries, e) }

// transcriptText renders entries[from:] for width cells: every line
// shorter than the width, so that each takes exactly one row (the
// renderer counts rows to move the cursor over printed text; a line of
// exactly the width would be counted twice).
func (m *model) transcriptText(from, width int) []string {
	var lines []string
	for _, e := range m.entries[from:] {
		s := downsample(m.profile, e(width))
		for _, l := range strings.Split(s, "\n") {
			if width > 1 && ansi.StringWidth(l) >= width {
				lines = append(lines, wrapLine(l, width-1)...)
				continue
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// clearAll clears the screen and the scrollback: a resize prints the
// whole transcript again after it. Screen first: some terminals (tmux)
// move a cleared screen into the scrollback.
const clearAll = "\x1b[H\x1b[2J\x1b[3J"

// flush prints what was queued, one print in flight at a time; when
// quitting and everything is out, it ends the program.
//
// Each print is at most as tall as the room above the view: the
// renderer makes room by scrolling and moves back up over what it
// printed, and cannot move above the top of the screen — a taller print
// left stale copies of the view and blank lines in the scrollback. After
// a resize the terminal has re-wrapped (or cut) the old view and the
// transcript; the screen and scrollback are cleared and the transcript
// printed again at the new width, as a fresh start would show it.
func (m *model) flush() tea.Cmd {
	if m.printing {
		return nil
	}
	w := max(m.width, 20)
	if m.redraw {
		m.redraw = false
		lines := m.transcriptText(0, w)
		m.printed, m.printing = len(m.entries), true
		return tea.Sequence(tea.Println(clearAll+strings.Join(lines, "\n")), tea.ClearScreen, func() tea.Msg { return printedMsg{} })
	}
	if m.printed == len(m.entries) {
		if m.quitting {
			return tea.Quit
		}
		return nil
	}
	lines := m.transcriptText(m.printed, w)
	m.printed, m.printing = len(m.entries), true
	room := max(1, m.height-m.viewRows-1)
	var cmds []tea.Cmd
	for len(lines) > 0 {
		n := min(room, len(lines))
		cmds = append(cmds, tea.Println(strings.Join(lines[:n], "\n")))
		lines = lines[n:]
	}
	cmds = append(cmds, func() tea.Msg { return printedMsg{} })
	return tea.Sequence(cmds...)
}

func (m *model) View() tea.View {
	if m.quitting {
		return tea.NewView("")
	}
	var parts []string
	w := max(m.width, 20)

	// The turn in progress.
	if s := m.stream.String(); s != "" {
		keep := max(3, m.height-12)
		// Finished blocks show rendered, the open one as it comes.
		var done []string
		if cut := finishedBlocks(s); cut > 0 {
			if cut != m.doneLen || w != m.doneWidth {
				m.doneLen, m.doneWidth = cut, w
				m.doneText = m.md.render(sanitize(s[:cut]), w)
			}
			done = strings.Split(m.doneText, "\n")
			s = strings.TrimLeft(s[cut:], "\n")
		}
		// Only the tail can show: wrap just that, so that a long answer
		// does not cost a full re-wrap per streamed word.
		if tail := keep * w * 4; len(s) > tail {
			s = s[len(s)-tail:]
			for len(s) > 0 && !utf8.RuneStart(s[0]) {
				s = s[1:]
			}
		}
		lines := strings.Split(ansi.Wrap(sanitize(s), w, ""), "\n")
		if s == "" {
			lines = nil
		}
		lines = append(done, lines...)
		if len(lines) > keep {
			lines = lines[len(lines)-keep:]
		}
		parts = append(parts, strings.Join(lines, "\n"))
	} else if t := strings.TrimSpace(m.thinking.String()); t != "" {
		parts = append(parts, fit(m.st.dim.Render("thinking: "+lastLine(t)), w))
	}
	for _, r := range m.tools {
		icon := m.spin.View()
		if m.asking == promptConfirm {
			icon = m.st.warn.Render("?")
		}
		line := icon + " " + m.st.tool.Render(r.call.Name) + " " + inputSummary(r.call.Name, r.call.Input) +
			m.st.dim.Render(" · "+formatDuration(time.Since(r.start).Truncate(100*time.Millisecond)))
		parts = append(parts, fit(line, w))
		parts = append(parts, m.kidLines(r.call.ID, w)...)
	}

	// The open question.
	switch m.asking {
	case promptConfirm:
		var q []string
		for _, c := range m.confirm.messages {
			q = append(q, fit(m.st.warn.Render("? "+c.Extension+": ")+oneLine(c.Message, 200), w))
		}
		what := m.confirm.tool
		if m.confirm.agent != "" {
			what = m.confirm.agent + ": " + what // a subagent's call
		}
		for _, r := range m.tools {
			if r.call.Name == m.confirm.tool {
				what = r.call.Name + " " + inputSummary(r.call.Name, r.call.Input)
			}
		}
		choices := "[y/N]"
		if m.confirm.always != "" {
			choices = "[y/N/a = always allow " + m.confirm.always + "]"
		}
		q = append(q, fit(m.st.warn.Render("Run "+what+"? "+choices), w))
		parts = append(parts, strings.Join(q, "\n"))
	case promptTrust:
		parts = append(parts, fit(m.st.warn.Render(m.trustQuestion()), w))
	}

	if r := m.retry; r != nil {
		parts = append(parts, fit(m.st.warn.Render(r.line(time.Now())), w))
	}
	for _, q := range m.steering {
		parts = append(parts, fit(m.st.dim.Render("queued › "+oneLine(q, summaryMax)+" · joins the turn at its next step"), w))
	}
	for _, q := range m.queue {
		parts = append(parts, fit(m.st.dim.Render("queued › "+oneLine(q, summaryMax)), w))
	}
	if m.pick != nil {
		parts = append(parts, m.pick.lines()...)
	} else if m.settings != nil {
		for _, l := range m.settings.lines(m.st) {
			parts = append(parts, fit(l, w))
		}
	} else {
		parts = append(parts, m.input.View())
	}

	if m.asking == promptNone {
		if ms := slashMatches(m.input.Value(), m.cands); len(ms) > 0 {
			var l []string
			nameW := 0
			for _, c := range ms[:min(len(ms), matchesShown)] {
				nameW = max(nameW, len(c.Name))
			}
			for i, c := range ms {
				if i == matchesShown {
					l = append(l, m.st.dim.Render(fmt.Sprintf("  … %d more", len(ms)-i)))
					break
				}
				l = append(l, fit(fmt.Sprintf("  %-*s  ", nameW, c.Name)+m.st.dim.Render(c.Help), w))
			}
			parts = append(parts, strings.Join(l, "\n"))
		}
	}

	status := m.st.dim.Render(statusText(m.state.model, m.state.usage, m.state.health, ""))
	if m.app != nil && m.app.Permissions != nil {
		// Another mode than default leads the line; default ends it,
		// where a narrow terminal may cut it.
		if mode := m.app.Permissions.Mode(); mode == permission.Default {
			status += m.st.dim.Render(" · ") + m.modeText(mode)
		} else {
			status = m.modeText(mode) + m.st.dim.Render(" · ") + status
		}
	}
	switch {
	case m.opening:
		what := "starting"
		if len(m.starting) > 0 {
			what = "starting extensions: " + strings.Join(m.starting, ", ")
		}
		status = m.spin.View() + " " + what + m.st.dim.Render(" · you can type meanwhile")
	case !m.quitArmed.IsZero():
		verb := "quit"
		if m.link != nil {
			verb = "detach (the session goes on)"
		}
		status = m.st.warn.Render("press "+m.quitKey+" again to "+verb) + m.st.dim.Render(" · ") + status
	case m.asking != promptNone:
		status = m.st.warn.Render("waiting for your answer") + m.st.dim.Render(" · ") + status
	case m.busy != "":
		hint := ""
		if !m.interrupted {
			hint = m.st.dim.Render(" (esc to interrupt)")
		}
		what := m.busy
		if len(m.starting) > 0 {
			what += " (starting " + strings.Join(m.starting, ", ") + ")"
		}
		status = m.spin.View() + " " + what + hint + m.st.dim.Render(" · ") + status
	case len(m.starting) > 0:
		status = m.st.dim.Render("starting extensions: "+strings.Join(m.starting, ", ")+" · ") + status
	}
	parts = append(parts, fit(status, w))
	lines := strings.Split(strings.Join(parts, "\n"), "\n")
	if limit := max(m.height-1, 2); len(lines) > limit {
		// Never taller than the terminal: the renderer's cursor
		// arithmetic breaks, and the input and status must show.
		lines = lines[len(lines)-limit:]
	}
	m.viewRows = len(lines)
	return tea.NewView(strings.Join(lines, "\n"))
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// envValue looks a variable up in environ, the last setting winning.
func envValue(environ []string, k string) string {
	v := ""
	for _, kv := range environ {
		if strings.HasPrefix(kv, k+"=") {
			v = kv[len(k)+1:]
		}
	}
	return v
}

func (m *model) trustQuestion() string {
	return fmt.Sprintf("This project has %d %s in .synaps/plugins. Trust this project? [y/N]",
		m.untrusted, plural.Noun(m.untrusted, "plugin"))
}

// modeText is the permission mode for the status line: the mode, and
// what it means when it is not the default (shift+tab switches).
func (m *model) modeText(mode permission.Mode) string {
	if mode == permission.Default {
		return m.st.dim.Render("⏵ default mode")
	}
	return m.st.warn.Render("⏵⏵ " + string(mode) + ": " + mode.Describe())
}
