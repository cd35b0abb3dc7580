package mcp

import (
	"fmt"
	"sync"
	"time"
)

// A server's notifications/tools/list_changed makes synaps list its tools
// again — debounced and bounded, so a server that answers every
// tools/list with list_changed cannot keep synaps re-listing it as fast
// as the two can talk (it did, ~60 times a second):
//
//   - a re-list waits RelistDelay after the notification, and the
//     notifications that come meanwhile, or while it runs, make one more
//     re-list at most;
//   - re-lists spend from a budget of RelistBurst that refills one per
//     RelistRefill; when it is spent, the next re-list waits for the
//     refill (a storming server is re-listed once a minute) and the
//     server's status says so.
const (
	RelistDelay  = 250 * time.Millisecond
	RelistBurst  = 10
	RelistRefill = time.Minute
)

// relister is one server's re-list state.
type relister struct {
	mu sync.Mutex
	// tokens is the budget as of at (negative: a re-list is waiting
	// for the refill); started says it was filled.
	tokens  float64
	at      time.Time
	started bool
	// scheduled: a re-list is waiting and will see any new change;
	// running: one is listing; again: a change came while it ran.
	scheduled, running, again bool
	// seen counts the notifications.
	seen int
}

// relistPolicy is the manager's (tests shorten the delay and lengthen
// the refill).
type relistPolicy struct {
	delay, refill time.Duration
	burst         int
}

func (p relistPolicy) orDefaults() relistPolicy {
	if p.delay <= 0 {
		p.delay = RelistDelay
	}
	if p.refill <= 0 {
		p.refill = RelistRefill
	}
	if p.burst <= 0 {
		p.burst = RelistBurst
	}
	return p
}

// listChanged is the tools/list_changed handler: it schedules a re-list
// unless one is waiting, or one more after the one running.
func (s *server) listChanged() {
	r := &s.relist
	r.mu.Lock()
	r.seen++
	throttled := false
	switch {
	case r.scheduled:
	case r.running:
		r.again = true
	default:
		throttled = s.scheduleRelist()
	}
	r.mu.Unlock()
	if throttled {
		s.changed()
	}
}

// scheduleRelist starts the goroutine of the next re-list, with r.mu
// held; it says whether the budget is spent (the re-list waits for it).
func (s *server) scheduleRelist() (throttled bool) {
	r := &s.relist
	p := s.m.relist
	now := time.Now()
	if !r.started {
		r.tokens, r.at, r.started = float64(p.burst), now, true
	}
	r.tokens = min(float64(p.burst), r.tokens+float64(now.Sub(r.at))/float64(p.refill))
	r.at = now
	r.tokens--
	delay := p.delay
	if r.tokens < 0 {
		throttled = true
		delay = max(delay, time.Duration(-r.tokens*float64(p.refill)))
		s.mu.Lock()
		s.err = fmt.Errorf("the server sent tools/list_changed %d times; synaps now re-lists its tools at most once every %s (a server that answers every tools/list with list_changed would keep it re-listing)", r.seen, p.refill)
		s.mu.Unlock()
	}
	r.scheduled = true
	s.m.goServer(func() {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.m.ctx.Done():
			return
		}
		r.mu.Lock()
		r.scheduled, r.running = false, true
		r.mu.Unlock()
		if err := s.refresh(); err != nil {
			s.mu.Lock()
			s.err = fmt.Errorf("refreshing tools after tools/list_changed: %w", err)
			s.mu.Unlock()
			s.changed()
		}
		r.mu.Lock()
		r.running = false
		throttled := false
		if r.again {
			r.again = false
			throttled = s.scheduleRelist()
		}
		r.mu.Unlock()
		if throttled {
			s.changed()
		}
	})
	return throttled
}
