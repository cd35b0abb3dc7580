//go:build !windows

package daemon

import (
	"fmt"
	"testing"
)

// BenchmarkAttach is the latency of `synaps attach` against a running
// session, the terminal aside: connect, hello, attach, and the replay
// through the session's first output (a session that printed 100 lines).
func BenchmarkAttach(b *testing.B) {
	base, _ := startServer(b, Options{IdleExit: -1})
	owner := newSession(b, base)
	for i := range 100 {
		owner.Input(fmt.Appendf(nil, "line %d\r", i))
	}
	waitOutput(b, owner, "echo: line 99")
	b.ReportAllocs()
	for b.Loop() {
		cl, err := Dial(base)
		if err != nil {
			b.Fatal(err)
		}
		a, err := cl.Attach("", ModeObserve, 80, 24)
		if err != nil {
			b.Fatal(err)
		}
		waitOutput(b, a, "echo: line 99")
		a.Close()
	}
}

// BenchmarkFanOut3 is one line of a session's output reaching its owner
// and three observers.
func BenchmarkFanOut3(b *testing.B) {
	base, _ := startServer(b, Options{IdleExit: -1})
	owner := newSession(b, base)
	var all []*Attachment
	for range 3 {
		cl, err := Dial(base)
		if err != nil {
			b.Fatal(err)
		}
		a, err := cl.Attach("", ModeObserve, 80, 24)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { a.Close() })
		waitOutput(b, a, "fake ui ready")
		all = append(all, a)
	}
	all = append(all, owner)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		want := fmt.Sprintf("echo: n%d\r", i)
		owner.Input(fmt.Appendf(nil, "n%d\r", i))
		for _, a := range all {
			waitOutput(b, a, want)
		}
	}
}
