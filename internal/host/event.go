package host

import (
	"errors"

	"github.com/synaps-cli/synaps/internal/agent"
)

// Event types the host adds to the agent's (agent.EventText,
// agent.EventToolStart, agent.EventSteer …): the edges of a turn and
// changes of the session itself. Every front-end sees the same stream.
const (
	// EventPrompt: a turn starts with the user's message (Text). Steered
	// is set when the text came from Steer: sent to an idle session, or
	// sent mid-turn to a turn that ended before another model request.
	EventPrompt agent.EventType = "prompt"
	// EventDone: the turn ended. Usage is the sum of its model requests;
	// Err is nil, or why it ended early (context.Canceled after Abort,
	// a limit, a model error).
	EventDone agent.EventType = "done"
	// EventSessionChanged: the session file changed (New, Compact,
	// Resume): Text is the new session id.
	EventSessionChanged agent.EventType = "session"
	// EventModelChanged: SetModel switched the model: Text is its name.
	EventModelChanged agent.EventType = "model"
)

// Event is one thing that happened in a session, numbered: Seq grows by
// one per event of the session, so a subscriber can tell it missed none.
type Event struct {
	agent.Event
	Seq       uint64
	SessionID string
	// Steered marks an EventPrompt whose text was sent with Steer.
	Steered bool
	// Tag is the Input.Tag of the turn, on its EventPrompt and EventDone.
	Tag string
}

// Errors a subscription ends with (Subscription.Err).
var (
	// ErrSlow ends a subscription whose buffer was full when an event
	// came: the session never waits for a subscriber. The subscriber has
	// missed events; it may subscribe again and read Messages.
	ErrSlow = errors.New("subscriber too slow: its event buffer filled up and it was dropped")
	// ErrClosed: the session was closed.
	ErrClosed = errors.New("session closed")
)

// DefaultBuffer is the event buffer of a subscription that asks for none:
// a whole turn's streamed words fit, so only a stalled reader is dropped.
const DefaultBuffer = 4096

// Subscription is one reader of a session's events. Events arrive on C
// in order; C is closed when the subscription ends: Close, the session
// closing (Err is ErrClosed) or the reader falling behind (ErrSlow).
type Subscription struct {
	// C carries the events; closed at the end.
	C <-chan Event
	// Start is the Seq of the last event before the subscription: the
	// first event on C is numbered Start+1.
	Start uint64

	c   chan Event
	s   *Session
	err error // guarded by s.mu
}

// Err says why C was closed: nil after Close, ErrSlow or ErrClosed.
func (sub *Subscription) Err() error {
	sub.s.mu.Lock()
	defer sub.s.mu.Unlock()
	return sub.err
}

// Close ends the subscription and closes C. Closing twice is harmless.
func (sub *Subscription) Close() {
	sub.s.mu.Lock()
	defer sub.s.mu.Unlock()
	sub.s.dropLocked(sub, nil)
}

// Subscribe adds a reader of the session's events with a buffer of that
// many events (0: DefaultBuffer). The session never waits for it: a
// reader whose buffer is full when an event comes is dropped (its C
// closes, Err is ErrSlow), and the turn goes on. A reader that must see
// every event without a buffer to size (an in-process front-end writing
// a transcript) uses Options.OnEvent instead.
func (s *Session) Subscribe(buffer int) *Subscription {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	c := make(chan Event, buffer)
	sub := &Subscription{C: c, c: c, s: s}
	s.mu.Lock()
	defer s.mu.Unlock()
	sub.Start = s.seq
	if s.closed {
		sub.err = ErrClosed
		close(c)
		return sub
	}
	s.subs[sub] = struct{}{}
	return sub
}

// dropLocked ends sub with err (once). Called with s.mu held.
func (s *Session) dropLocked(sub *Subscription, err error) {
	if _, ok := s.subs[sub]; !ok {
		return
	}
	delete(s.subs, sub)
	sub.err = err
	close(sub.c)
}

// publishLocked numbers ev and hands it to every subscriber without
// waiting. Called with s.mu held.
func (s *Session) publishLocked(ev Event) {
	s.seq++
	ev.Seq = s.seq
	ev.SessionID = s.id
	for sub := range s.subs {
		select {
		case sub.c <- ev:
		default:
			s.dropLocked(sub, ErrSlow)
		}
	}
}
