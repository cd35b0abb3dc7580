package tui

import (
	"github.com/synaps-cli/synaps/internal/trust"

	"context"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/daemon"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
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
		// diff is what the call would change (agent.Question.Diff).
		diff  *tool.Diff
		reply chan<- agent.Answer
	}
	// workDoneMsg ends a worker: a turn or a slash command.
	workDoneMsg struct {
		out     string        // text to print (slash output)
		history []llm.Message // a resumed session's conversation, to print
		shell   *shellRun     // a !command that ran
		models  *modelPicker  // models listed for /model's picker
		err     error
		quit    bool
		edit    string // a file to open in the editor (/memory edit)
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

type model struct {
	ctx context.Context // Run's; work contexts derive from it
	// frame holds the processes until the first frame (startup.go); nil
	// in tests that make a model alone.
	frame *firstFrame
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
	choice  *choiceState // a tool's multiple-choice question (choice.go)
	escAt   time.Time    // the last esc on an empty idle input (rewind.go)
	// kids are the subagents running, in the order they started.
	kids      []*kid
	untrusted int
	// trustHeld are the items the trust dialog asks about; trustListed
	// says the project is trusted and they changed since.
	trustHeld   []trust.Held
	trustListed bool
	draft       string // the input put aside while a question is answered

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

	// expanded renders tool call entries (by index) with all their
	// output, for the transcript view (ctrl+o); tview is that view while
	// it is open, else nil (transcriptview.go).
	expanded map[int]entry
	tview    *transcriptView
	// mentions is the @ list's state (mentionlist.go).
	mentions *mentionList
	// bg sends the running bash calls to the background (ctrl+b).
	bg *builtin.Backgrounder
	// statusLn is the status line command's output (statusline.go).
	statusLn *statusLine
	// mpick is /model's picker while it is open (modelpicker.go).
	mpick *modelPicker

	// queue holds what the user sent while work ran, oldest first.
	queue []string
	// turn: the running work is a model turn, which takes steering.
	// steering is the text sent into it (agent.Agent.Steer) that has not
	// joined it yet, oldest first; EventSteer says when one did.
	turn     bool
	steering []string
	// attached are pictures and PDFs /attach added for the next message.
	attached []llm.Image
	// pasted maps the placeholder of each long paste to its text
	// (paste.go); kept for the session, so queued input still expands.
	pasted map[string]string
	// search is Ctrl+R's history search while it is open, else nil.
	search *histSearch
	// pick is the session picker /resume opens; nil when closed.
	pick *picker
	// settings is the /settings screen while it is open, nil otherwise.
	settings *settingsScreen
	// hooks is the /hooks screen while it is open, nil otherwise.
	hooks *hooksScreen

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
		wg: &sync.WaitGroup{}, bg: builtin.NewBackgrounder(), width: 80, height: 24, opening: a == nil, idleAfter: idleNotifyAfter,
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
	if st := m.app.TrustState(); st != nil && len(st.Held) > 0 {
		m.openTrustDialog(st.Held, st.Listed)
	} else if n := app.UntrustedCount(m.app.Statuses()); n > 0 {
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
		m.pasteText(msg.Content)
		return nil
	case eventMsg:
		return m.event(msg.ev)
	case confirmMsg:
		m.confirm = &msg
		m.ask(promptConfirm)
		return nil
	case choiceMsg:
		m.openChoice(msg)
		return nil
	case rewindMsg:
		return m.rewindStep(msg)
	case workDoneMsg:
		cmd := m.workDone(msg)
		return tea.Batch(cmd, m.refreshStatusLine())
	case openedMsg:
		cmd := m.opened(msg)
		return tea.Batch(cmd, m.refreshStatusLine())
	case statusLineMsg:
		m.statusLineDone(msg)
		return nil
	case editedMsg:
		m.edited(msg)
		return nil
	case memoryEditedMsg:
		m.memoryEdited(msg)
		return nil
	case tea.BackgroundColorMsg:
		m.md.follow(msg.IsDark())
		return nil
	case progressMsg:
		m.starting = msg.starting
		// The health the status line shows changes with the start;
		// the next health tick is up to 2 s away.
		if m.busy == "" && m.app != nil {
			m.state.health = m.app.Health()
		}
		return nil
	case wakeMsg:
		return m.woken(msg)
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
			m.state.health = m.app.Health()
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
