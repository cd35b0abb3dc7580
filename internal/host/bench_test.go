package host

import (
	"sync"
	"testing"

	"github.com/synaps-cli/synaps/internal/agent"
)

// BenchmarkFanOut3 is one streamed word reaching three subscribers: the
// agent's event is numbered, handed to each buffer, and taken by each
// reader. (Readers on goroutines of their own cannot keep up with a loop
// that only publishes: they would be dropped as slow, which measures
// nothing; so the loop reads too.)
func BenchmarkFanOut3(b *testing.B) {
	s := &Session{subs: map[*Subscription]struct{}{}, id: "bench"}
	s.idle = sync.NewCond(&s.mu)
	subs := []*Subscription{s.Subscribe(0), s.Subscribe(0), s.Subscribe(0)}
	ev := agent.Event{Type: agent.EventText, Text: " word"}
	b.ReportAllocs()
	for b.Loop() {
		s.onAgent(ev)
		for _, sub := range subs {
			<-sub.C
		}
	}
}
