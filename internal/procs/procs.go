// Package procs decides how many Ps (threads running Go code at once)
// synaps uses: one while it waits, every one while tool calls of one turn
// run side by side.
//
// Most of synaps's time is spent waiting on pipes, sockets and child
// processes, and there a second P only costs: every goroutine hand-off
// (an extension's reply reaching the hook chain) wakes a second OS thread
// that finds nothing to do. On a two-core VM one P halves synaps's CPU per
// hook round trip and cuts the round trip by a quarter to a half
// (docs/performance.md). But read-only tool calls of one turn run side by
// side (grep, find, read over a large tree), and one P would run their
// CPU work in turn: four greps of one turn took 87 ms instead of 69. So
// synaps narrows to one P at start (Narrow) and widens while such a batch
// runs (Widen).
package procs

import (
	"runtime"
	"sync"
)

var (
	mu sync.Mutex
	// wide is the P count to widen to, the runtime's own choice before
	// Narrow; 0: Narrow was not called, and Widen does nothing.
	wide int
	// busy counts the Widen calls not yet done.
	busy int
)

// Narrow runs synaps on one P from now on, but while Widen is in force.
// cmd/synaps calls it unless the user set GOMAXPROCS.
func Narrow() {
	mu.Lock()
	defer mu.Unlock()
	if n := runtime.GOMAXPROCS(1); n > 1 {
		wide = n
	}
}

// Widen gives the process every P until done is called, for CPU work
// that runs side by side; overlapping calls share one widening. Without
// Narrow it does nothing.
func Widen() (done func()) {
	mu.Lock()
	defer mu.Unlock()
	if wide == 0 {
		return func() {}
	}
	busy++
	if busy == 1 {
		runtime.GOMAXPROCS(wide)
	}
	return sync.OnceFunc(func() {
		mu.Lock()
		defer mu.Unlock()
		busy--
		if busy == 0 {
			runtime.GOMAXPROCS(1)
		}
	})
}
