// Package host owns sessions for the front-ends that drive them: the
// terminal UI, -p, chat, rpc, server, and the per-user daemon's attach
// and send. A session (an app: agent, session file, extensions, working
// directory) lives in a Host, not in a front-end; front-ends are clients
// of the same API (Session.Prompt, Steer, Abort …) and of the same event
// stream (Session.Subscribe), so one scenario gives the same session file
// and the same events however it is driven.
//
// Concurrency: a Host and its Sessions are safe for concurrent use. A
// turn runs on a goroutine of its session; readers of its events never
// slow it down (a full buffer drops the reader, see Subscribe).
package host

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/app"
)

// Host holds any number of open sessions, each with its own working
// directory, environment and extensions (app.Options per Open).
type Host struct {
	mu       sync.Mutex
	sessions []*Session
}

// New returns an empty host.
func New() *Host { return &Host{} }

// Open opens a session as app.Open does with o: a new one, or the one o
// resumes (o.Resume, o.Continue), in o.WorkDir with o.Getenv/o.Environ.
// o.OnEvent, when set, hears every agent event synchronously, in order,
// before any subscriber, and may slow the turn down: it is for an
// in-process front-end that must not miss an event (-p's JSON stream,
// the terminal UI). It also hears EventPrompt when text steered into a
// turn that ended before taking it is sent as a message of its own (see
// Session.Steer). Everyone else subscribes (Session.Subscribe).
func (h *Host) Open(ctx context.Context, o app.Options) (*Session, error) {
	s := &Session{host: h, observe: o.OnEvent, subs: map[*Subscription]struct{}{}, opened: time.Now()}
	s.idle = sync.NewCond(&s.mu)
	// Extensions may report (a notice) while they start: the session
	// hears them before it is open, and has no subscriber yet.
	o.OnEvent = s.onAgent
	if front := o.OnWake; front != nil {
		// A background hook's wake joins the running turn; an idle
		// session is the front-end's to wake (app.Options.OnWake).
		o.OnWake = func(text string) {
			if !s.Join(text) {
				front(text)
			}
		}
	}
	s.base, s.stop = context.WithCancel(context.WithoutCancel(ctx))
	a, err := app.Open(ctx, o)
	if err != nil {
		s.stop()
		return nil, err
	}
	s.mu.Lock()
	s.app, s.file, s.id, s.model = a, a.Session, a.Session.ID, a.Model
	if a.Agent != nil {
		s.usage = a.Agent.Usage()
	}
	s.mu.Unlock()
	h.mu.Lock()
	h.sessions = append(h.sessions, s)
	h.mu.Unlock()
	return s, nil
}

// Find is the open session whose file has id (its current id: New and
// Compact change it), or nil.
func (h *Host) Find(id string) *Session {
	for _, s := range h.Sessions() {
		if s.ID() == id {
			return s
		}
	}
	return nil
}

// Sessions lists the open sessions, oldest first.
func (h *Host) Sessions() []*Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*Session(nil), h.sessions...)
}

func (h *Host) forget(s *Session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, x := range h.sessions {
		if x == s {
			h.sessions = append(h.sessions[:i], h.sessions[i+1:]...)
			return
		}
	}
}

// Close closes every session (Session.Close), in parallel, and returns
// their errors joined.
func (h *Host) Close(ctx context.Context) error {
	ss := h.Sessions()
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Close(ctx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
