package tui

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/llm"
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
)

// placeholder is what the empty input says.
const placeholder = "Ask anything · / for commands · alt+enter or ctrl+j for a newline"

// keysHelp is appended to /help.
const keysHelp = `
keys: enter send (queued while a turn runs) · alt+enter or ctrl+j newline · up/down history · tab complete /commands
      esc interrupt the turn · ctrl+c clear the input, else interrupt, twice on an empty prompt quit · ctrl+d quit`

// Messages the program receives besides Bubble Tea's own.
type (
	// eventMsg is an agent event.
	eventMsg struct{ ev agent.Event }
	// confirmMsg asks the user to allow a tool call; reply gets the answer.
	confirmMsg struct {
		tool     string
		messages []extension.Confirm
		reply    chan<- bool
	}
	// workDoneMsg ends a worker: a turn or a slash command.
	workDoneMsg struct {
		out  string // text to print (slash output)
		err  error
		quit bool
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
)

// state is what the status line and completion show of the app, read by
// a worker after its work so the UI never reads the app while it is busy.
type state struct {
	model  string
	usage  llm.Usage
	health string
	ids    []string
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
	ctx     context.Context // Run's; work contexts derive from it
	app     *app.App        // touched only here when idle, or by the worker
	br      *bridge
	st      styles
	profile colorprofile.Profile
	md      markdown

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
	stream   strings.Builder // the answer so far, raw
	thinking strings.Builder
	tools    []running

	// The open question, if any.
	asking    prompt
	confirm   *confirmMsg
	untrusted int
	draft     string // the input put aside while a question is answered

	// quitArmed is when ctrl+c was pressed on an empty idle prompt: a
	// second press within quitWindow quits. interrupted: the running
	// work was told to stop.
	quitArmed   time.Time
	interrupted bool

	// queue holds what the user sent while work ran, oldest first.
	queue []string

	// Printing: outbox waits while a print is in flight, so that lines
	// reach the terminal in order.
	outbox   []string
	printing bool
	quitting bool
}

func newModel(ctx context.Context, a *app.App, br *bridge, profile colorprofile.Profile, environ []string) *model {
	m := &model{
		ctx: ctx, app: a, br: br, st: newStyles(), profile: profile,
		wg: &sync.WaitGroup{}, width: 80, height: 24,
	}
	m.md.style = markdownStyle(profile, environ)
	m.state = readState(a)
	m.cands = defaultCandidates(m.state.ids)

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
	for _, n := range m.app.Notes {
		m.print(m.st.dim.Render("· " + n))
	}
	if n := app.UntrustedCount(m.app.Statuses()); n > 0 {
		m.untrusted = n
		m.ask(promptTrust)
	}
	return tea.Batch(m.flush(), tea.Tick(healthEvery, func(time.Time) tea.Msg { return healthMsg{} }))
}

// Update handles msg, then prints whatever it queued.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
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
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(msg.Width)
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
	case spinner.TickMsg:
		if m.busy == "" {
			return nil // let the tick chain end
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case healthMsg:
		if m.busy == "" {
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
	switch k.String() {
	case "ctrl+c":
		return m.ctrlC()
	case "esc":
		return m.esc()
	case "ctrl+d":
		if m.input.Value() == "" && m.busy == "" && m.asking == promptNone {
			return m.quit()
		}
	case "enter", "ctrl+m":
		return m.submit()
	case "tab":
		if m.asking == promptNone {
			if v := m.input.Value(); strings.HasPrefix(v, "/") {
				if c := completeSlash(v, m.cands); c != v {
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
	m.quitArmed = time.Time{} // any other key disarms the second ctrl+c
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
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
		m.answerConfirm(false)
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
		return m.quit() // the interrupted work does not end: leave anyway
	}
	now := time.Now()
	if !m.quitArmed.IsZero() && now.Sub(m.quitArmed) < quitWindow {
		return m.quit()
	}
	m.quitArmed = now
	return tea.Tick(quitWindow, func(time.Time) tea.Msg { return disarmMsg{} })
}

// esc interrupts the running turn (Claude Code's Escape); at a question
// it answers no. Idle, it does nothing, so a stray escape loses nothing.
func (m *model) esc() tea.Cmd {
	switch {
	case m.asking == promptConfirm:
		m.answerConfirm(false)
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
	m.cancel()
	m.unqueue()
}

// quit ends the program once everything queued is printed.
func (m *model) quit() tea.Cmd {
	if m.asking == promptConfirm {
		m.answerConfirm(false)
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
		m.answerConfirm(yes(text))
		return nil
	case promptTrust:
		m.endAsk()
		m.print(m.st.warn.Render(m.trustQuestion()) + " " + oneLine(text, 20))
		if !yes(text) {
			m.print(m.st.dim.Render("· project plugins stay off; trust the project later with `synaps trust` and /extensions reload"))
			return nil
		}
		return m.startTrust()
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	m.hist.add(text)
	m.input.Reset()
	if m.busy != "" {
		if cmd := strings.TrimSpace(text); cmd == "/quit" || cmd == "/exit" {
			return m.quit()
		}
		// Queued, as in Claude Code: it runs when the work ends.
		m.queue = append(m.queue, text)
		return nil
	}
	return m.run(text)
}

// run starts what the user sent: a slash command or a message.
func (m *model) run(text string) tea.Cmd {
	m.print(m.userLines(text))
	if app.IsSlash(text) {
		return m.startSlash(strings.TrimSpace(text))
	}
	return m.startTurn(text)
}

// next starts the oldest queued input, if any.
func (m *model) next() tea.Cmd {
	if len(m.queue) == 0 || m.quitting || m.busy != "" || m.asking != promptNone {
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
}

// endAsk closes the question and gives the input back.
func (m *model) endAsk() {
	m.asking = promptNone
	m.input.Placeholder = placeholder
	m.input.SetValue(m.draft)
	m.draft = ""
}

func (m *model) answerConfirm(ok bool) {
	c := m.confirm
	m.confirm = nil
	m.endAsk()
	if c == nil {
		return
	}
	c.reply <- ok // buffered: never blocks
	verdict := m.st.bad.Render("denied")
	if ok {
		verdict = m.st.ok.Render("allowed")
	}
	for _, cm := range c.messages {
		m.print(m.st.warn.Render("? "+cm.Extension+": ") + oneLine(cm.Message, 200))
	}
	m.print("  " + c.tool + " " + verdict)
}

// startTurn sends text to the agent in a worker.
func (m *model) startTurn(text string) tea.Cmd {
	return m.work("thinking", func(ctx context.Context) workDoneMsg {
		return workDoneMsg{err: m.app.Agent.Send(ctx, text)}
	})
}

// startSlash runs a slash command in a worker.
func (m *model) startSlash(line string) tea.Cmd {
	return m.work("running "+strings.Fields(line)[0], func(ctx context.Context) workDoneMsg {
		res, err := m.app.Slash(ctx, line)
		out := res.Output
		if err == nil && strings.Fields(line)[0] == "/help" {
			out = strings.TrimRight(out, "\n") + "\n" + keysHelp
		}
		return workDoneMsg{out: out, err: err, quit: res.Quit}
	})
}

// startTrust trusts the project and reloads the extensions.
func (m *model) startTrust() tea.Cmd {
	a := m.app
	return m.work("trusting the project", func(ctx context.Context) workDoneMsg {
		if _, err := app.Trust(a.BaseDir, a.WorkDir); err != nil {
			return workDoneMsg{err: err}
		}
		res, err := a.Slash(ctx, "/extensions reload")
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
	m.busy, m.cancel, m.interrupted = "", nil, false
	m.flushTurn()
	m.state = msg.state
	m.cands = defaultCandidates(msg.state.ids)
	if out := strings.TrimRight(msg.out, "\n"); out != "" {
		m.print(sanitize(out))
	}
	if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
		m.print(m.st.bad.Render("error: ") + sanitize(msg.err.Error()))
	}
	if msg.quit {
		return m.quit()
	}
	return m.next()
}

// flushTurn prints what is left of an interrupted turn: the partial
// answer and tool calls that never reported an end.
func (m *model) flushTurn() {
	if s := strings.TrimSpace(m.stream.String()); s != "" {
		m.print(sanitize(s))
	}
	m.stream.Reset()
	m.thinking.Reset()
	for _, r := range m.tools {
		m.print(m.st.bad.Render("✗ ") + m.st.tool.Render(r.call.Name) + " " + inputSummary(r.call.Name, r.call.Input) + m.st.dim.Render(" · interrupted"))
	}
	m.tools = nil
}

func (m *model) event(ev agent.Event) tea.Cmd {
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
				lines = append(lines, fmt.Sprintf("… %d more lines", more))
			}
			m.print(m.st.dim.Render("thinking: " + strings.Join(lines, "\n          ")))
		}
		if strings.TrimSpace(text) != "" {
			m.print(m.md.render(sanitize(text), m.width))
		}
		m.stream.Reset()
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
		m.print(strings.Join(toolLines(ev.Tool, m.st, m.width), "\n"))
	case agent.EventTurnEnd:
		m.state.usage.InputTokens += ev.Usage.InputTokens
		m.state.usage.OutputTokens += ev.Usage.OutputTokens
	case agent.EventRetry:
		m.print(m.st.warn.Render(fmt.Sprintf("· retrying in %s: %v", formatDuration(ev.Delay), ev.Err)))
	case agent.EventNotice:
		m.print(m.st.dim.Render("· " + sanitize(ev.Text)))
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

// print queues s for the transcript.
func (m *model) print(s string) { m.outbox = append(m.outbox, s) }

// flush prints the queue, one print in flight at a time; when quitting
// and everything is out, it ends the program.
func (m *model) flush() tea.Cmd {
	if m.printing {
		return nil
	}
	if len(m.outbox) == 0 {
		if m.quitting {
			return tea.Quit
		}
		return nil
	}
	s := downsample(m.profile, strings.Join(m.outbox, "\n"))
	m.outbox, m.printing = nil, true
	return tea.Sequence(tea.Println(s), func() tea.Msg { return printedMsg{} })
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
		// Only the tail can show: wrap just that, so that a long answer
		// does not cost a full re-wrap per streamed word.
		if tail := keep * w * 4; len(s) > tail {
			s = s[len(s)-tail:]
			for len(s) > 0 && !utf8.RuneStart(s[0]) {
				s = s[1:]
			}
		}
		lines := strings.Split(ansi.Wrap(sanitize(s), w, ""), "\n")
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
	}

	// The open question.
	switch m.asking {
	case promptConfirm:
		var q []string
		for _, c := range m.confirm.messages {
			q = append(q, fit(m.st.warn.Render("? "+c.Extension+": ")+oneLine(c.Message, 200), w))
		}
		what := m.confirm.tool
		for _, r := range m.tools {
			if r.call.Name == m.confirm.tool {
				what = r.call.Name + " " + inputSummary(r.call.Name, r.call.Input)
			}
		}
		q = append(q, fit(m.st.warn.Render("Run "+what+"? [y/N]"), w))
		parts = append(parts, strings.Join(q, "\n"))
	case promptTrust:
		parts = append(parts, fit(m.st.warn.Render(m.trustQuestion()), w))
	}

	for _, q := range m.queue {
		parts = append(parts, fit(m.st.dim.Render("queued › "+oneLine(q, summaryMax)), w))
	}
	parts = append(parts, m.input.View())

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
	switch {
	case !m.quitArmed.IsZero():
		status = m.st.warn.Render("press ctrl+c again to quit") + m.st.dim.Render(" · ") + status
	case m.asking != promptNone:
		status = m.st.warn.Render("waiting for your answer") + m.st.dim.Render(" · ") + status
	case m.busy != "":
		hint := ""
		if !m.interrupted {
			hint = m.st.dim.Render(" (esc to interrupt)")
		}
		status = m.spin.View() + " " + m.busy + hint + m.st.dim.Render(" · ") + status
	}
	parts = append(parts, fit(status, w))
	return tea.NewView(strings.Join(parts, "\n"))
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
		m.untrusted, plural(m.untrusted, "plugin", "plugins"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
