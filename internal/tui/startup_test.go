package tui

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestStartupRestores: once the session has opened (and the width table
// is built), the collector's settings and the P count are what they were
// before the start.
func TestStartupRestores(t *testing.T) {
	type settings struct {
		GCPercent int
		MemLimit  int64
		Procs     int
	}
	read := func() settings {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return settings{p, debug.SetMemoryLimit(-1), runtime.GOMAXPROCS(0)}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	before := read()

	s := beginStartup()
	if got := debug.SetMemoryLimit(-1); got != startHeapLimit {
		t.Errorf("memory limit during the start = %d, want %d", got, startHeapLimit)
	}
	s.opened()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the start did not end after the session opened")
	}
	if diff := cmp.Diff(before, read()); diff != "" {
		t.Errorf("settings after the start (-before +after):\n%s", diff)
	}
}
