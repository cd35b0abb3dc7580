package tui

import (
	"math"
	"runtime/debug"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/synaps-cli/synaps/internal/procs"
)

// startHeapLimit bounds the heap the start may grow without a collection
// (see beginStartup): far above a start's few megabytes, far below what
// would matter on any machine.
const startHeapLimit = 256 << 20

// startup is the UI's start, made to reach the first frame sooner (issue
// 37: "ready to type in under 50 ms"). Three things compete for the one P
// synaps runs on (internal/procs) between the exec and the first frame:
// the session's opening (discovery, skills, extensions' launch), the
// program's own start, and the first frame, whose first non-ASCII rune
// builds go-runewidth's 2 MB width table (≈ 9 ms of CPU). The start is
// CPU work side by side, so it gets every P (procs.Widen), the width
// table is built on its own goroutine while the program starts, and the
// collector, which ran once or twice during a start, waits until the
// session is open unless the heap passes startHeapLimit.
type startup struct {
	wg   sync.WaitGroup
	done chan struct{} // closed once the process's settings are back
}

// beginStartup begins the start; call opened once the session's opening
// has returned.
func beginStartup() *startup {
	s := &startup{done: make(chan struct{})}
	wide := procs.Widen()
	gcPercent := debug.SetGCPercent(-1)
	memLimit := debug.SetMemoryLimit(-1)
	if memLimit == math.MaxInt64 || memLimit > startHeapLimit {
		debug.SetMemoryLimit(startHeapLimit)
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		ansi.WcWidth.StringWidth("›") // the width table: any rune above U+02FF
	}()
	go func() {
		s.wg.Wait()
		debug.SetMemoryLimit(memLimit)
		debug.SetGCPercent(gcPercent)
		wide()
		close(s.done)
	}()
	return s
}

// opened says the session's opening has returned.
func (s *startup) opened() { s.wg.Done() }
