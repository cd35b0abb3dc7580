package checkpoint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// The record on disk is an append-only log, one JSON entry a line: a
// change to the record costs one short line (contents are objects), not
// a rewrite of the whole record as the older <id>.json form cost. When
// the log holds many more entries than the record needs (points dropped
// or cut), it is rewritten whole, as one "points" entry.

// Entry operations.
const (
	opPoint  = "point"  // a point begun (Point)
	opFile   = "file"   // a file recorded in the last point (File)
	opDrop   = "drop"   // the N oldest points dropped (the bound)
	opCut    = "cut"    // the points from N on dropped (a rewind)
	opPoints = "points" // the whole record (Points): a rewrite
)

// entry is one line of the log.
type entry struct {
	Op     string  `json:"op"`
	Point  *Point  `json:"point,omitempty"`
	File   *File   `json:"file,omitempty"`
	N      int     `json:"n,omitempty"`
	Points []Point `json:"points,omitempty"`
}

// compactAfter is how many entries a log may hold beyond the record's
// own before it is rewritten.
const compactAfter = 256

// logFile is the log of one record.
type logFile struct {
	path    string // "" keeps nothing
	entries int    // lines in the file
}

// openLog reads the record from the log at path, else from the older
// form at legacy (which the next change turns into a log).
func openLog(path, legacy string) ([]Point, *logFile) {
	l := &logFile{path: path}
	f, err := os.Open(path)
	if err != nil {
		var points []Point
		if b, err := os.ReadFile(legacy); err == nil && json.Unmarshal(b, &points) == nil && len(points) > 0 {
			if l.rewrite(points) {
				os.Remove(legacy)
			}
		}
		return points, l
	}
	var points []Point
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	cut := false
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			cut = true // a line cut short by a crash ends the log
			break
		}
		l.entries++
		points = apply(points, e)
	}
	f.Close()
	if cut || sc.Err() != nil {
		// Lines appended after the damage would never be read.
		l.rewrite(points)
	}
	return points, l
}

// apply is points after e.
func apply(points []Point, e entry) []Point {
	switch e.Op {
	case opPoint:
		if e.Point != nil {
			points = append(points, *e.Point)
		}
	case opFile:
		if e.File != nil && len(points) > 0 {
			p := &points[len(points)-1]
			p.Files = append(p.Files, *e.File)
		}
	case opDrop:
		if e.N > 0 && e.N <= len(points) {
			points = points[e.N:]
		}
	case opCut:
		if e.N >= 0 && e.N <= len(points) {
			points = points[:e.N]
		}
	case opPoints:
		points = append([]Point(nil), e.Points...)
	}
	return points
}

// add appends es; points is the record after them, written whole
// instead when the log has grown well past it. A failure leaves the
// record in memory.
func (l *logFile) add(points []Point, es ...entry) {
	if l.path == "" {
		return
	}
	live := len(points)
	for _, p := range points {
		live += len(p.Files)
	}
	if l.entries+len(es) > 2*live+compactAfter {
		l.rewrite(points)
		return
	}
	var buf bytes.Buffer
	for _, e := range es {
		b, err := json.Marshal(e)
		if err != nil {
			return
		}
		buf.Write(append(b, '\n'))
	}
	if os.MkdirAll(filepath.Dir(l.path), 0o700) != nil {
		return
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Write(buf.Bytes()); err == nil {
		l.entries += len(es)
	}
}

// rewrite writes the log as one entry holding points; false when it
// could not.
func (l *logFile) rewrite(points []Point) bool {
	if l.path == "" {
		return false
	}
	b, err := json.Marshal(entry{Op: opPoints, Points: points})
	if err != nil {
		return false
	}
	if os.MkdirAll(filepath.Dir(l.path), 0o700) != nil {
		return false
	}
	tmp := l.path + ".tmp"
	if os.WriteFile(tmp, append(b, '\n'), 0o600) != nil || os.Rename(tmp, l.path) != nil {
		return false
	}
	l.entries = 1
	return true
}
