package tui

import (
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
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

// TestFirstFrame: the hold on the processes ends at the first
// frame-sized write after the first view, not at what Bubble Tea writes
// before it (terminal queries) nor at a frame-sized write before any view;
// a terminal file stays one; and without a frame the fallback ends it.
func TestFirstFrame(t *testing.T) {
	held := func(f *firstFrame) bool {
		select {
		case <-f.hold:
			return false
		default:
			return true
		}
	}
	f := newFirstFrame()
	f.fallback = time.Hour // this part is about writes
	var out strings.Builder
	w := f.writer(&out)
	if _, ok := w.(terminalFile); ok {
		t.Fatal("a plain writer was made a terminal file")
	}
	big := strings.Repeat("─", frameBytes)
	w.Write([]byte(big)) // before any view: the header's kind of write
	f.view()
	w.Write([]byte("\x1b[?2026$p")) // a query from the same tick
	if !held(f) {
		t.Fatal("released before the frame")
	}
	f.view()
	w.Write([]byte(big))
	if held(f) {
		t.Fatal("still held after the first frame")
	}
	if out.Len() != 2*len(big)+len("\x1b[?2026$p") {
		t.Errorf("wrote %d bytes, want every write passed on", out.Len())
	}
	// A frame that comes in small pieces: the second write after the
	// view is the frame's.
	f2 := newFirstFrame()
	f2.fallback = time.Hour
	w2 := f2.writer(io.Discard)
	f2.view()
	w2.Write([]byte("\x1b[?2026$p"))
	if !held(f2) {
		t.Fatal("released at a query")
	}
	w2.Write([]byte("\x1b[H"))
	if held(f2) {
		t.Fatal("still held after the tick's second write")
	}

	tty, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	if _, ok := newFirstFrame().writer(tty).(terminalFile); !ok {
		t.Error("a file lost its Fd behind the writer")
	}

	g := newFirstFrame()
	g.fallback = time.Millisecond
	g.view()
	select {
	case <-g.hold:
	case <-time.After(10 * time.Second):
		t.Fatal("no frame and no release: the processes would wait for ever")
	}
}
