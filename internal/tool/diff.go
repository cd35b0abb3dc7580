package tool

import (
	"strings"

	"github.com/synaps-cli/synaps/internal/linediff"
)

// Diff is what a tool changed in one file, for people: UIs show it under
// the call (removed lines marked -, added +), and headless output carries
// it. The model never sees it — its result stays the tool's short Output
// (as Claude Code's does), because every result is re-sent on every later
// request. Built-in edit and write fill it; an extension tool may return
// one too (docs/extensions/protocol.md, "diff").
type Diff struct {
	// Path is the file, as the tool was given it.
	Path string `json:"path"`
	// Created is set when the file did not exist: Lines are its first
	// lines, all added.
	Created bool `json:"created,omitempty"`
	// Added and Removed count every added and removed line, shown or not.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Lines are the changes with up to DiffContext unchanged lines around
	// each; a DiffGap line stands for unchanged lines left out between
	// two changes. At most MaxDiffLines.
	Lines []DiffLine `json:"lines,omitempty"`
	// More counts the lines beyond MaxDiffLines that were left out.
	More int `json:"more,omitempty"`
	// TooLarge is set when no line diff was made (the change is too big
	// to diff within DiffMaxChanges): Added and Removed are then the
	// sizes of the changed region.
	TooLarge bool `json:"too_large,omitempty"`
	// Whole is set by a Previewer (a permission question's diff) with
	// Before and After, the file's whole text before and after: ACP's
	// session/request_permission sends them as its diff content, which
	// takes whole texts. Never serialised, so a Diff on events and in
	// stream-json stays bounded.
	Whole         bool   `json:"-"`
	Before, After string `json:"-"`
}

// DiffLine is one line of a Diff.
type DiffLine struct {
	// Kind is " " (unchanged), "-" (removed), "+" (added) or "…" (a gap:
	// unchanged lines left out).
	Kind string `json:"kind"`
	// Old and New are the 1-based numbers of the line in the file before
	// and after; 0 where the line is not in that file (and for a gap).
	Old int `json:"old,omitempty"`
	New int `json:"new,omitempty"`
	// Text is the line without its line ending, cut to MaxDiffLineBytes.
	Text string `json:"text,omitempty"`
}

// Kinds of diff lines.
const (
	DiffSame    = " "
	DiffRemoved = "-"
	DiffAdded   = "+"
	DiffGap     = "…"
)

// Bounds of a Diff: it rides on events to every UI and into stream-json,
// so its size does not grow with the file.
const (
	// DiffContext is how many unchanged lines surround each change.
	DiffContext = 3
	// MaxDiffLines is the most lines a Diff carries.
	MaxDiffLines = 400
	// MaxDiffLineBytes is the most bytes of one line's text.
	MaxDiffLineBytes = 400
	// DiffMaxChanges bounds the diff's work: a change needing more removed
	// plus added lines is TooLarge.
	DiffMaxChanges = 1000
	// diffMaxRegion is the most lines of the changed region (both sides,
	// after the common head and tail are cut) that are diffed.
	diffMaxRegion = 50000
)

// NewDiff is the diff from before to after.
func NewDiff(path, before, after string) *Diff {
	a, b := splitLines(before), splitLines(after)
	// The common head and tail cost nothing to skip: an edit changes a
	// few lines of a file, however long it is.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	d := &Diff{Path: path}
	var script []linediff.Edit
	ok := len(ma)+len(mb) <= diffMaxRegion
	if ok {
		script, ok = linediff.Lines(ma, mb, DiffMaxChanges)
	}
	if !ok {
		d.TooLarge, d.Removed, d.Added = true, len(ma), len(mb)
		return d
	}
	// The whole script: context from the common head and tail, then the
	// middle's edits, all in file coordinates.
	all := make([]linediff.Edit, 0, len(script)+2*DiffContext)
	for i := max(0, p-DiffContext); i < p; i++ {
		all = append(all, linediff.Edit{Op: linediff.Equal, A: i, B: i})
	}
	for _, e := range script {
		all = append(all, linediff.Edit{Op: e.Op, A: e.A + p, B: e.B + p})
	}
	for i := 0; i < min(s, DiffContext); i++ {
		all = append(all, linediff.Edit{Op: linediff.Equal, A: len(a) - s + i, B: len(b) - s + i})
	}
	d.hunks(a, b, all)
	return d
}

// NewFileDiff is the diff of a file created with content: its first lines.
func NewFileDiff(path, content string) *Diff {
	b := splitLines(content)
	d := &Diff{Path: path, Created: true, Added: len(b)}
	for i, l := range b[:min(len(b), MaxDiffLines)] {
		d.add(DiffLine{Kind: DiffAdded, New: i + 1, Text: l})
	}
	d.More = len(b) - len(d.Lines)
	return d
}

// hunks keeps the changes of script and DiffContext unchanged lines
// around each; longer unchanged runs between changes become one gap.
func (d *Diff) hunks(a, b []string, script []linediff.Edit) {
	near := make([]bool, len(script))
	for i, e := range script {
		if e.Op == linediff.Equal {
			continue
		}
		if e.Op == linediff.Delete {
			d.Removed++
		} else {
			d.Added++
		}
		for j := max(0, i-DiffContext); j <= min(len(script)-1, i+DiffContext); j++ {
			near[j] = true
		}
	}
	gap := false
	shown := false
	for i, e := range script {
		if !near[i] {
			gap = true
			continue
		}
		if gap && shown {
			d.add(DiffLine{Kind: DiffGap})
		}
		gap, shown = false, true
		switch e.Op {
		case linediff.Equal:
			d.add(DiffLine{Kind: DiffSame, Old: e.A + 1, New: e.B + 1, Text: a[e.A]})
		case linediff.Delete:
			d.add(DiffLine{Kind: DiffRemoved, Old: e.A + 1, Text: a[e.A]})
		case linediff.Insert:
			d.add(DiffLine{Kind: DiffAdded, New: e.B + 1, Text: b[e.B]})
		}
	}
}

// add appends a line within MaxDiffLines, counting the rest in More; it
// reports whether the line was kept.
func (d *Diff) add(l DiffLine) bool {
	if len(d.Lines) >= MaxDiffLines {
		d.More++
		return false
	}
	if len(l.Text) > MaxDiffLineBytes {
		l.Text = truncUTF8(l.Text, MaxDiffLineBytes) + "…"
	}
	d.Lines = append(d.Lines, l)
	return true
}

// splitLines splits text into lines without their endings ("\n" or
// "\r\n"); a final line ending does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// truncUTF8 cuts s to at most n bytes without splitting a character.
func truncUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
