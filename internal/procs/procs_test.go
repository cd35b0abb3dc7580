package procs

import (
	"runtime"
	"testing"
)

// Narrow leaves one P; Widen gives the runtime's count back while any
// widening is in force, and overlapping ones share it; done twice counts
// once.
func TestNarrowAndWiden(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	defer func() {
		mu.Lock()
		wide, busy = 0, 0
		mu.Unlock()
		runtime.GOMAXPROCS(before)
	}()
	runtime.GOMAXPROCS(4) // as on a machine with four cores
	Narrow()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("after Narrow: %d Ps, want 1", got)
	}
	first := Widen()
	second := Widen()
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("while widened: %d Ps, want 4", got)
	}
	first()
	first()
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("one widening still in force: %d Ps, want 4", got)
	}
	second()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("all widenings done: %d Ps, want 1", got)
	}
}

// Without Narrow (GOMAXPROCS set by the user, or a test), Widen changes
// nothing.
func TestWidenWithoutNarrow(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	done := Widen()
	done()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("Widen without Narrow changed GOMAXPROCS %d -> %d", before, got)
	}
}
