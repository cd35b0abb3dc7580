package host

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
)

// ErrBusy refuses what needs an idle session while a turn (or a
// compaction, a model switch …) runs; Steer and Abort are what a busy
// session takes.
var ErrBusy = errors.New("the session is busy with a turn; steer it, wait for it, or abort it first")

// BusyError is ErrBusy (errors.Is) naming the activity that holds the
// session, so that a front-end can say what the user waits for: a turn
// is steered or aborted, a compaction or a model switch only ends.
type BusyError struct {
	// Activity is "turn", "compact", "model", "new", "resume", "slash"
	// or "models" (State.Activity's words).
	Activity string
}

// busyWhat says what each activity is, for the error.
var busyWhat = map[string]string{
	"compact": "a compaction is running",
	"model":   "the model is being switched",
	"new":     "a new session is being opened",
	"resume":  "a session is being resumed",
	"slash":   "a command is running",
	"models":  "the models are being listed",
}

func (e *BusyError) Error() string {
	if _, ok := busyWhat[e.Activity]; !ok {
		return ErrBusy.Error()
	}
	return "the session is busy: " + e.What() + "; wait for it to end"
}

// What says what holds the session, e.g. "a compaction is running".
func (e *BusyError) What() string {
	if what, ok := busyWhat[e.Activity]; ok {
		return what
	}
	return "a turn is running"
}

// Is makes a BusyError ErrBusy.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// Input is one user message.
type Input struct {
	Text string
	// Attachments are files to send with the text (pictures, PDFs, text
	// files), read when the message is sent; a relative path is in the
	// session's directory.
	Attachments []Attachment
	// Images are pictures and PDFs already read.
	Images []llm.Image
	// Command, when set, is a Markdown command's prompt to run instead
	// of Text (app.ExpandCommand).
	Command *app.CommandPrompt
	// Tag is an opaque label the turn's EventPrompt and EventDone carry,
	// so that a client among several tells its own turn (rpc answers a
	// prompt's id when its turn is done).
	Tag string
}

// Session is one conversation owned by a Host: its app (agent, session
// file, extensions, cwd), the turn in progress and the readers of its
// events. Its methods are safe to call from any goroutine: a turn runs on
// a goroutine of the session's own, so it outlives the client that
// started it (Prompt) unless the client asked to own it (Run).
//
// The methods that change the conversation or its setup (Prompt, Run,
// Compact, New, Resume, SetModel, Models) need the session idle and
// return ErrBusy otherwise; Steer, Abort, Wait, Messages, State, Stats
// and Subscribe work at any time.
type Session struct {
	host *Host
	// observe is Options.OnEvent, told every agent event first.
	observe func(agent.Event)
	// base is the session's life: turns started with Prompt run in it,
	// and Close ends it.
	base context.Context
	stop context.CancelFunc
	// app is used by one activity at a time (activity != ""), or for
	// what never changes after Open; see App.
	app *app.App

	// mu guards everything below, and Subscription.err; idle is
	// signalled (on mu) whenever an activity ends.
	mu       sync.Mutex
	idle     *sync.Cond
	id       string
	model    string
	file     *session.Session
	activity string // "" idle, "turn", "compact", "model", "new", "resume", "models"
	turn     *turn  // the turn running, when activity == "turn"
	subs     map[*Subscription]struct{}
	seq      uint64
	usage    llm.Usage // the session's so far
	requests int       // model requests answered in this process
	opened   time.Time
	closed   bool
}

// turn is a running turn: cancel stops it (Abort); done is closed when
// it has ended, with err set.
type turn struct {
	tag    string
	cancel context.CancelFunc
	done   chan struct{}
	err    error
	usage  llm.Usage
}

// App is the session's app, for what the host does not wrap: what Open
// set and nothing changes afterwards (Notes, BaseDir, WorkDir, Config,
// Tools, WaitMCP, MCPStatuses, Statuses). Anything that changes the
// session goes through the Session's methods, which keep one activity at
// a time.
func (s *Session) App() *app.App { return s.app }

// ID is the id of the session file being written; it changes with New,
// Compact and Resume (EventSessionChanged).
func (s *Session) ID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id
}

// onAgent hears every agent event: Options.OnEvent first, in the
// agent's goroutine, then every subscriber.
func (s *Session) onAgent(ev agent.Event) {
	if s.observe != nil {
		s.observe(ev)
	}
	if ev.Tool != nil {
		// The agent goes on filling in the call it reported; readers
		// get the call as it was when the event came.
		c := *ev.Tool
		ev.Tool = &c
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.Type == agent.EventTurnEnd {
		s.usage = s.usage.Add(ev.Usage)
		s.requests++
		if s.turn != nil {
			s.turn.usage = s.turn.usage.Add(ev.Usage)
		}
	}
	s.publishLocked(Event{Event: ev})
}

// begin claims the session for an activity; end gives it back.
func (s *Session) begin(what string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.beginLocked(what)
}

func (s *Session) beginLocked(what string) error {
	switch {
	case s.closed:
		return ErrClosed
	case s.activity != "":
		return &BusyError{Activity: s.activity}
	}
	s.activity = what
	return nil
}

// end releases the session after an activity and takes what it changed
// (the session file, the model) into the state every reader sees.
func (s *Session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLocked()
}

func (s *Session) endLocked() {
	s.activity = ""
	s.idle.Broadcast()
	if s.app.Session != s.file {
		s.file = s.app.Session
		s.id = s.file.ID
		s.usage = llm.Usage{}
		if s.app.Agent != nil {
			s.usage = s.app.Agent.Usage()
		}
		s.publishLocked(Event{Event: agent.Event{Type: EventSessionChanged, Text: s.id}})
	}
	if s.app.Model != s.model {
		s.model = s.app.Model
		s.publishLocked(Event{Event: agent.Event{Type: EventModelChanged, Text: s.model}})
	}
}

// Prompt starts a turn with in and returns without waiting: the turn
// runs in the session's own context, so it goes on when the caller (a
// client that disconnects) is gone, until it ends, Abort or Close.
// Events tell how it goes; Wait waits for it. ErrBusy while another turn
// runs (Steer joins a running turn instead).
func (s *Session) Prompt(in Input) error {
	_, err := s.start(s.base, in, false)
	return err
}

// Run sends in and waits for the turn to end, returning how it ended
// (nil, a limit, a model error, ctx's error). The turn is the caller's:
// it stops when ctx ends, as -p and chat want of Ctrl-C and --timeout.
func (s *Session) Run(ctx context.Context, in Input) error {
	t, err := s.start(ctx, in, false)
	if err != nil {
		return err
	}
	<-t.done
	return t.err
}

// Steer sends text to the session now: a running turn takes it at its
// next model request, after the tool results in flight, without
// restarting (agent.Agent.Steer; EventSteer when it joins); an idle
// session takes it as a new message (EventPrompt with Steered). steered
// says which happened. ErrBusy while another activity (a compaction, a
// model switch) runs.
func (s *Session) Steer(text string) (steered bool, err error) {
	if strings.TrimSpace(text) == "" {
		return false, errors.New("nothing to steer with: the text is empty")
	}
	if s.Join(text) {
		return true, nil
	}
	_, err = s.start(s.base, Input{Text: text}, true)
	return false, err
}

// Join adds text to the running turn as Steer does, and only that: it
// reports false, sending nothing, when no turn runs. A front-end with a
// queue of its own (the terminal UI) keeps the text for its next message.
func (s *Session) Join(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.activity != "turn" || s.app.Agent == nil || s.closed {
		return false
	}
	// Under s.mu: the turn's last look for steered text happens under
	// it too, so nothing joined here is left behind. (While a turn runs,
	// nothing else changes the agent.)
	s.app.Agent.Steer(text)
	return true
}

// Unsteer takes back what was steered into the running turn and has not
// joined it yet, oldest first (an interrupt gives it back to the user).
func (s *Session) Unsteer() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.activity != "turn" || s.app.Agent == nil {
		return nil
	}
	return s.app.Agent.TakeSteers()
}

// Abort stops the running turn, as Ctrl-C does: the partial answer and
// every finished tool result stay in the session, which is consistent.
// It reports whether a turn was running; it does not wait (Wait does).
func (s *Session) Abort() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn == nil {
		return false
	}
	s.turn.cancel()
	return true
}

// Wait waits until no turn runs (or ctx ends) and returns how the last
// one ended, nil when none ran.
func (s *Session) Wait(ctx context.Context) error {
	s.mu.Lock()
	t := s.turn
	s.mu.Unlock()
	if t == nil {
		return nil
	}
	select {
	case <-t.done:
		return t.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// start claims the session for a turn and runs it on a goroutine.
func (s *Session) start(ctx context.Context, in Input, steered bool) (*turn, error) {
	if in.Command == nil && strings.TrimSpace(in.Text) == "" && len(in.Attachments) == 0 && len(in.Images) == 0 {
		return nil, errors.New("the message is empty: give text or attachments")
	}
	s.mu.Lock()
	if err := s.beginLocked("turn"); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	// The session is this turn's now: its app is ours to read.
	noAgent, model := s.app.Agent == nil, s.model
	s.mu.Unlock()
	fail := func(err error) (*turn, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		var left []string
		if s.app.Agent != nil {
			left = s.app.Agent.TakeSteers() // steered while it started
		}
		for _, text := range left {
			s.publishLocked(Event{Event: agent.Event{Type: agent.EventNotice, Text: "not sent, the message it was to join was refused: " + text}})
		}
		s.endLocked()
		return nil, err
	}
	if noAgent {
		return fail(s.app.NoModel())
	}
	if len(in.Attachments) > 0 {
		text, images, err := readAttachments(in.Attachments, s.app.WorkDir, model)
		if err != nil {
			return fail(err)
		}
		in.Text = strings.TrimPrefix(strings.TrimRight(in.Text+"\n\n"+text, "\n"), "\n\n")
		in.Images = append(in.Images, images...)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	t := &turn{tag: in.Tag, cancel: cancel, done: make(chan struct{})}
	s.turn = t
	text := in.Text
	if in.Command != nil {
		text = in.Command.Prompt
	}
	s.publishLocked(Event{Event: agent.Event{Type: EventPrompt, Text: text}, Steered: steered, Tag: in.Tag})
	go s.run(ctx, t, in)
	return t, nil
}

// run is a turn: the message, then any text steered in that no model
// request took (each a message of its own, in order), until none is left
// or one fails.
func (s *Session) run(ctx context.Context, t *turn, in Input) {
	defer t.cancel()
	var err error
	if in.Command != nil {
		err = s.app.SendCommand(ctx, *in.Command)
	} else {
		err = s.app.Send(ctx, in.Text, in.Images...)
	}
	for {
		s.mu.Lock()
		left := s.app.Agent.TakeSteers()
		if err != nil || len(left) == 0 {
			s.finishLocked(t, err, left)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		for i, text := range left {
			prompt := agent.Event{Type: EventPrompt, Text: text}
			s.mu.Lock()
			s.publishLocked(Event{Event: prompt, Steered: true})
			s.mu.Unlock()
			if s.observe != nil {
				// In order with the agent's events: the front-end that
				// steered shows the text as the message it now is.
				s.observe(prompt)
			}
			if err = s.app.Send(ctx, text); err != nil {
				// What was not sent is said, not lost.
				for _, text := range left[i+1:] {
					s.app.Agent.Steer(text)
				}
				break
			}
		}
	}
}

// finishLocked ends turn t with err; steered text it could not send is
// named in a notice. Called with s.mu held.
func (s *Session) finishLocked(t *turn, err error, unsent []string) {
	for _, text := range unsent {
		s.publishLocked(Event{Event: agent.Event{Type: agent.EventNotice, Text: "not sent, the turn ended first: " + text}})
	}
	t.err = err
	s.turn = nil
	s.endLocked()
	s.publishLocked(Event{Event: agent.Event{Type: EventDone, Usage: t.usage, Err: err}, Tag: t.tag})
	close(t.done)
}

// Compact summarises the conversation into a new session
// (EventSessionChanged names it), as /compact does.
func (s *Session) Compact(ctx context.Context) error {
	if err := s.begin("compact"); err != nil {
		return err
	}
	defer s.end()
	return s.app.Compact(ctx)
}

// New ends the conversation and starts an empty one in the same
// directory, with the same model and extensions; it returns the new id.
func (s *Session) New(ctx context.Context) (string, error) {
	if err := s.begin("new"); err != nil {
		return "", err
	}
	err := s.app.NewSession(ctx)
	s.end()
	return s.ID(), err
}

// Resume ends the conversation and goes on with the saved session id.
func (s *Session) Resume(ctx context.Context, id string) error {
	if err := s.begin("resume"); err != nil {
		return err
	}
	defer s.end()
	return s.app.Resume(ctx, id)
}

// SetModel switches the model of the next requests (as /model NAME); the
// conversation goes on.
func (s *Session) SetModel(name string) error {
	if err := s.begin("model"); err != nil {
		return err
	}
	defer s.end()
	return s.app.SetModel(name)
}

// Slash runs a slash command line as /help, /model, /compact, /new …
// do in the terminal (app.App.Slash); a Markdown command's prompt comes
// back in the result for Run or Prompt (Input.Command).
func (s *Session) Slash(ctx context.Context, line string) (app.SlashResult, error) {
	if err := s.begin("slash"); err != nil {
		return app.SlashResult{}, err
	}
	defer s.end()
	return s.app.Slash(ctx, line)
}

// Models lists what SetModel takes (app.App.Models), and notes on what
// could not be listed.
func (s *Session) Models(ctx context.Context) ([]app.ModelChoice, []string, error) {
	if err := s.begin("models"); err != nil {
		return nil, nil, err
	}
	defer s.end()
	choices, notes := s.app.Models(ctx)
	return choices, notes, nil
}

// Messages is a copy of the conversation so far, the running turn's
// finished messages included.
func (s *Session) Messages() []llm.Message {
	s.mu.Lock()
	f := s.file
	s.mu.Unlock()
	return f.Messages()
}

// State is what a session is doing.
type State struct {
	ID      string
	Model   string
	WorkDir string
	// Busy: a turn runs (Streaming) or another activity (Activity).
	Busy      bool
	Streaming bool
	Activity  string
	Messages  int
	// Subscribers is how many readers follow the events.
	Subscribers int
	Opened      time.Time
}

// State is a snapshot of the session.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return State{ID: s.id, Model: s.model, WorkDir: s.app.WorkDir, Busy: s.activity != "", Streaming: s.activity == "turn",
		Activity: s.activity, Messages: len(s.file.View()), Subscribers: len(s.subs), Opened: s.opened}
}

// Stats are a session's counts.
type Stats struct {
	ID       string
	Model    string
	Usage    llm.Usage // the session's, earlier runs of a resumed one included
	Requests int       // model requests answered since the host opened it
	Messages int
}

// Stats is the session's usage and size so far.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{ID: s.id, Model: s.model, Usage: s.usage, Requests: s.requests, Messages: len(s.file.View())}
}

// Close stops the running turn, waits for it, ends the session (hooks,
// extensions, the file) and every subscription (ErrClosed). The host
// forgets it.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true // nothing new starts
	if s.turn != nil {
		s.turn.cancel()
	}
	s.mu.Unlock()
	s.stop()
	s.mu.Lock()
	// The turn, or a compaction, a model switch …, ends first: the app
	// is closed by no one else.
	for s.activity != "" {
		s.idle.Wait()
	}
	for sub := range s.subs {
		s.dropLocked(sub, ErrClosed)
	}
	s.mu.Unlock()
	s.host.forget(s)
	return s.app.Close(ctx)
}
