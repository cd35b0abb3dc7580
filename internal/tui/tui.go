// Package tui is synaps's interactive terminal chat, a Bubble Tea program.
//
// # Design
//
// Two goroutines matter. The program's event loop owns the screen and all
// UI state (model.go). Work — one user message through the agent, or one
// slash command — runs in a worker goroutine, one at a time, so the app
// and its agent are never used concurrently: the UI reads nothing from
// them while a worker runs, and each worker reports, with its result, the
// state the status line shows (model, tokens, extension health).
//
// Agent events reach the program as messages through the bridge (p.Send),
// in order. A confirm action blocks the agent's goroutine in
// bridge.Confirm until the user answers the inline [y/N] prompt, the
// turn is cancelled, or the program ends.
//
// Finished output — the user's messages, answers rendered as markdown,
// tool calls, command output — is printed above the program into the
// terminal's own scrollback, so it stays after exit and reads as plain
// text in `tmux capture-pane`. Only the turn in progress (the raw
// streaming answer, running tools with a spinner), prompts, the input and
// the status line are in the redrawn view.
//
// # Keys
//
// docs/keys.md is the user's reference; in short:
//
//	enter                      send the input (while a turn runs it steers the turn; commands are queued), or answer the open [y/N] question
//	alt+enter, ctrl+j          a newline in the input (shift+enter where the terminal reports it)
//	up, down                   input history (on the input's first / last line)
//	tab                        complete a /command; matching commands show under the input
//	esc                        interrupt the running turn
//	ctrl+c                     clear the input; else interrupt; twice on an empty idle prompt: quit
//	ctrl+d                     twice on an empty idle input: quit
//
// NO_COLOR turns colours off (bold and faint stay); GLAMOUR_STYLE picks
// the markdown style.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/daemon"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/host"
)

// Run opens the session described by opts (it sets opts.OnEvent and
// opts.Confirmer itself) and runs the interactive terminal UI until the
// user quits. It returns the exit error, if any. in/out are the terminal.
func Run(ctx context.Context, opts app.Options, in io.Reader, out io.Writer) error {
	br := newBridge()
	opts.OnEvent = br.event
	opts.Confirmer = br
	opts.LeavePlan = "Shift+Tab, or /mode default, or by approving the plan you give exit_plan_mode"
	opts.NoModelOK = true // the UI opens and says how to configure one
	opts.Progress = func(starting []string) { br.send(progressMsg{starting}) }
	opts.OnWake = func(text string) { br.send(wakeMsg{text}) }
	// Extensions start in the background: the first request waits only
	// for those that may change it (their tools, their on_session_start
	// and before_message hooks); a guard of tool calls is waited for at
	// the first tool call it may judge.
	opts.Background = true

	environ := os.Environ()
	overridden := false
	if opts.Getenv != nil {
		// The colour profile honours NO_COLOR from the session's
		// environment as well as the process's.
		for _, k := range []string{"NO_COLOR", "TERM", "COLORTERM", "CLICOLOR", "CLICOLOR_FORCE"} {
			if v := opts.Getenv(k); v != "" {
				environ = append(environ, k+"="+v)
				overridden = overridden || v != os.Getenv(k)
			}
		}
	}
	profile := terminalProfile(out, environ, overridden)
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	link, err := daemon.OpenLink(getenv)
	if err != nil {
		return err
	}
	// From here to the open session, the start runs side by side on
	// every P, with the width table built ahead of the first frame.
	start := beginStartup()
	m := newModel(ctx, nil, br, profile, environ)
	m.link = link
	// The header is written before the program starts, so the view never
	// begins on the screen's top row: tmux (scroll-on-clear) moves a
	// screen cleared from its top-left corner into the scrollback, which
	// left a stale copy of the view there. It is the first transcript
	// entry, already printed.
	header := downsample(profile, m.header(opts.Version))
	fmt.Fprintln(out, header)
	m.entries, m.printed = []entry{func(int) string { return header }}, 1
	// The extensions' and MCP servers' processes wait for the first
	// frame (firstFrame); the rest of the opening does not.
	frame := newFirstFrame()
	defer frame.release()
	m.frame, opts.Hold = frame, frame.hold
	p := tea.NewProgram(m,
		tea.WithInput(in), tea.WithOutput(frame.writer(out)), tea.WithEnvironment(environ),
		tea.WithColorProfile(profile),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			// SIGINT (input not in raw mode) behaves like ctrl+c.
			if _, ok := msg.(tea.InterruptMsg); ok {
				return interruptMsg{}
			}
			return msg
		}),
	)
	br.attach(p.Send)
	if link != nil {
		go linkInputs(link, br)
	}
	go func() {
		select {
		case <-ctx.Done():
			p.Send(shutdownMsg{})
		case <-br.done:
		}
	}()

	// The session opens (extensions start) while the UI already runs:
	// the user sees which extensions start and can type meanwhile.
	octx, cancelOpen := context.WithCancel(ctx)
	defer cancelOpen()
	opened := make(chan openedMsg, 1)
	go func() {
		// The session is a host's, as every front-end's is: the UI is
		// its client (turns, slash commands, steering).
		hs, err := host.New().Open(octx, opts)
		start.opened()
		opened <- openedMsg{hs, err}
		br.send(openedMsg{hs, err})
	}()

	_, runErr := p.Run()
	// A program that failed before its first frame drew none: the
	// processes go now, or the session's end (on_session_end) would
	// wait on them for a hold only this return lifts.
	frame.release()
	br.stop()
	// A worker may still run (quit during a turn): cancel it and wait, so
	// that Close does not race the agent.
	m.stopWork()
	var res openedMsg
	select {
	case res = <-opened:
	default:
		cancelOpen() // quit while extensions were starting
		res = <-opened
	}
	if res.err != nil {
		return res.err
	}
	a := res.hs.App()
	if n := len(a.Session.Messages()); n > 0 {
		// As Codex does: the way back is on the screen when the UI is gone.
		if a.Agent != nil {
			fmt.Fprintf(out, "this session: %s\n", usageText(a.Agent.Usage()))
		}
		fmt.Fprintf(out, "resume this session with: synaps --resume %s\n", a.Session.ID)
	}

	// Close bounds the end itself (app.EndHookBudget, app.EndStopBudget),
	// and a Ctrl-C now (the terminal is no longer raw: it is a SIGINT)
	// ends it at once.
	a.OnEnding = func(msg string) { fmt.Fprintln(out, msg) }
	if ctx.Err() == nil {
		a.EndReason = "prompt_input_exit" // the user quit (Claude's SessionEnd reason)
	}
	closeErr := res.hs.Close(context.WithoutCancel(ctx))
	if errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil {
		runErr = nil // cancelled from outside (signal): a normal end
	}
	return errors.Join(runErr, closeErr)
}

// bridge carries what the agent's goroutine has to say to the program.
type bridge struct {
	mu sync.Mutex
	to func(tea.Msg) // the program's Send; nil until attach

	done     chan struct{} // closed when the program has ended
	stopOnce sync.Once
}

func newBridge() *bridge { return &bridge{done: make(chan struct{})} }

// attach makes send deliver to fn (the program's Send).
func (b *bridge) attach(fn func(tea.Msg)) {
	b.mu.Lock()
	b.to = fn
	b.mu.Unlock()
}

// send delivers msg to the program; it drops msg once the program ended.
func (b *bridge) send(msg tea.Msg) {
	select {
	case <-b.done:
		return
	default:
	}
	b.mu.Lock()
	to := b.to
	b.mu.Unlock()
	if to != nil {
		to(msg) // Program.Send is a no-op once the program has ended
	}
}

func (b *bridge) stop() { b.stopOnce.Do(func() { close(b.done) }) }

// event is Options.OnEvent. The agent reuses its ToolCall while the call
// runs, so the program gets a copy taken now.
func (b *bridge) event(ev agent.Event) {
	if ev.Tool != nil {
		tc := *ev.Tool
		ev.Tool = &tc
	}
	if ev.Message != nil {
		msg := *ev.Message
		ev.Message = &msg
	}
	b.send(eventMsg{ev})
}

// Confirm is the hook.Confirmer: it asks the user inline and waits.
func (b *bridge) Confirm(ctx context.Context, tool string, messages []hook.Confirm) bool {
	return b.Ask(ctx, agent.Question{Tool: tool, Messages: messages}) != agent.AnswerNo
}

// Ask is the agent.Asker: Confirm, with "always" when the question offers
// a rule to save.
func (b *bridge) Ask(ctx context.Context, q agent.Question) agent.Answer {
	reply := make(chan agent.Answer, 1)
	b.send(confirmMsg{tool: q.Tool, messages: q.Messages, always: q.Always, agent: q.Agent, diff: q.Diff, reply: reply})
	select {
	case ans := <-reply:
		return ans
	case <-ctx.Done():
		return agent.AnswerNo
	case <-b.done:
		return agent.AnswerNo
	}
}

var (
	_ hook.Confirmer = (*bridge)(nil)
	_ agent.Asker    = (*bridge)(nil)
)
