package tui

import (
	"io"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

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

// frameBytes is less than any first frame writes (the input box at the
// narrowest, 20 columns, is over 200 bytes) and more than what Bubble Tea
// writes before a frame in the same tick (terminal queries: a few dozen).
const frameBytes = 128

// frameFallback releases the hold this long after the first view even if
// no frame was seen to be written: the processes are held, never lost.
const frameFallback = 100 * time.Millisecond

// firstFrame holds the extensions' and MCP servers' processes (app
// Options.Hold) until the UI's first frame is on the screen. Before it,
// a dozen interpreters starting at once share the machine's CPUs with
// the frame the user waits for: 16 Python extensions took the input box
// from 48 to 80–95 ms on 2 cores. Bubble Tea renders the first view at
// once but writes it at its renderer's next tick: that tick writes what
// is queued for the terminal (queries), if anything, then the frame. So
// the hold ends at the first write after the first view that is
// frame-sized, or at the second.
type firstFrame struct {
	hold     chan struct{}
	once     sync.Once
	viewed   atomic.Bool
	writes   atomic.Int32  // writes since the first view
	fallback time.Duration // frameFallback; tests change it
}

func newFirstFrame() *firstFrame {
	return &firstFrame{hold: make(chan struct{}), fallback: frameFallback}
}

// view is called by every View; the first arms the release.
func (f *firstFrame) view() {
	if f != nil && !f.viewed.Load() && f.viewed.CompareAndSwap(false, true) {
		time.AfterFunc(f.fallback, f.release)
	}
}

// wrote hears a write of n bytes to the terminal.
func (f *firstFrame) wrote(n int) {
	if f.viewed.Load() && (f.writes.Add(1) >= 2 || n >= frameBytes) {
		f.release()
	}
}

// release lets the processes start.
func (f *firstFrame) release() { f.once.Do(func() { close(f.hold) }) }

// writer wraps the terminal's output so that f hears its writes. A
// terminal file stays one (Bubble Tea asks its Fd for the size and raw
// mode).
func (f *firstFrame) writer(out io.Writer) io.Writer {
	if t, ok := out.(terminalFile); ok {
		return frameFile{t, f}
	}
	return frameWriter{out, f}
}

// terminalFile is Bubble Tea's term.File.
type terminalFile interface {
	io.ReadWriteCloser
	Fd() uintptr
}

type frameWriter struct {
	io.Writer
	f *firstFrame
}

func (w frameWriter) Write(p []byte) (int, error) {
	n, err := w.Writer.Write(p)
	w.f.wrote(n)
	return n, err
}

type frameFile struct {
	terminalFile
	f *firstFrame
}

func (w frameFile) Write(p []byte) (int, error) {
	n, err := w.terminalFile.Write(p)
	w.f.wrote(n)
	return n, err
}
