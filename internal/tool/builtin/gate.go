package builtin

import (
	"fmt"
	"io/fs"

	"github.com/synaps-cli/synaps/internal/plural"
)

// FileGate judges each file a tool reaches that its call did not name.
// The permission check before a call sees only the call's path: grep and
// find walk a directory, ls lists one, and a file inside (or a link in it
// to a file elsewhere) may be one the user's rules forbid reading.
// *permission.Policy is one.
type FileGate interface {
	// DenyReads returns the judge of one call's files: it says why the
	// file at path (absolute, links not yet resolved: the judge resolves
	// them; link says whether path itself is one) may not be read, ""
	// when it may. Nil when nothing is denied.
	DenyReads() func(path string, link bool) string
}

// gateTally counts what a gate kept from one call, for the note that
// says so: nothing is left out silently.
type gateTally struct {
	judge          func(path string, link bool) string // nil: nothing is denied
	n              int
	first, firstBy string // the first file left out, as the call names it, and why
}

// newTally starts the tally of one call; a nil gate refuses nothing.
func newTally(gate FileGate) *gateTally {
	t := &gateTally{}
	if gate != nil {
		t.judge = gate.DenyReads()
	}
	return t
}

// check asks the judge about the entry d at abs (rel as the result names
// it) and counts a refusal; it reports whether the file may be read.
func (t *gateTally) check(abs, rel string, d fs.DirEntry) bool {
	if t == nil || t.judge == nil {
		return true
	}
	why := t.judge(abs, d.Type()&fs.ModeSymlink != 0)
	if why == "" {
		return true
	}
	if t.n == 0 {
		t.first, t.firstBy = rel, why
	}
	t.n++
	return false
}

// note says what was left out ("" when nothing was): how many, the first
// of them and the rule, so the model knows the result is not the whole
// directory and why.
func (t *gateTally) note(what string) string {
	if t == nil || t.n == 0 {
		return ""
	}
	if t.n == 1 {
		return fmt.Sprintf("[skipped %s: the permission rules deny reading it (%s)]", t.first, t.firstBy)
	}
	return fmt.Sprintf("[skipped %s the permission rules deny reading, e.g. %s (%s)]", plural.Count(t.n, what), t.first, t.firstBy)
}
