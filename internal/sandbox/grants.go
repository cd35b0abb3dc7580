package sandbox

import (
	"os"
	"path/filepath"
	"sort"
)

// Access classes, as Landlock's rights group them.
const (
	// accessRead is reading files, listing directories, executing.
	accessRead = 1 << iota
	// accessWrite is every other right: writing, truncating, creating,
	// removing, renaming.
	accessWrite
	// accessList is listing a directory only: what an ancestor of a
	// hidden path gets, so `ls ~` works while ~/.ssh stays unread.
	accessList
)

// grant is one Landlock rule: access to the tree beneath path.
type grant struct {
	path   string
	access int
	// kind is what path was when the policy was prepared (kindUnknown:
	// not looked at), so that building the ruleset need not stat it.
	kind int
}

const (
	kindUnknown = iota
	kindDir
	kindFile
	kindMissing
)

// grants turns the policy into Landlock rules. Landlock only grants, and a
// right on a directory reaches everything beneath it, so "read everywhere
// but Hidden" is granted as: read on every entry of an ancestor of a
// hidden path that is neither hidden nor an ancestor itself (recursively),
// list on the ancestors. Write-class rights are granted on the Write
// trees whole: a hidden path inside one gets no read right (the read
// class comes only from the enumeration) and is mounted read-only by the
// helper so it cannot be written either — or, where a mount namespace
// allows, masked, and the tree granted read whole.
//
// around are the hidden paths read is granted around: all of them
// (resolved) without masks; with masks (mask_linux.go), only those
// outside the writable trees or kept unmasked there, so that a writable
// tree whose stores are masked is granted read whole.
func (p Policy) grants(around []string) []grant {
	hidden := around
	var out []grant
	if p.ReadAll {
		out = append(out, grantBeneath("/", accessRead, hidden)...)
	}
	for _, r := range resolveAll(p.Read) {
		out = append(out, grantBeneath(r, accessRead, hidden)...)
	}
	for _, w := range resolveAll(p.Write) {
		out = append(out, grant{path: w, access: accessWrite})
		if !p.ReadAll {
			out = append(out, grantBeneath(w, accessRead, hidden)...)
		}
	}
	for _, r := range resolveAll(p.Reveal) {
		out = append(out, grant{path: r, access: accessRead})
	}
	for _, d := range devFiles {
		out = append(out, grant{path: d, access: accessRead | accessWrite})
	}
	return out
}

// grantBeneath grants access to root but the hidden paths inside it.
func grantBeneath(root string, access int, hidden []string) []grant {
	var inside []string
	for _, h := range hidden {
		if within(root, h) {
			return nil // root is hidden itself
		}
		if within(h, root) {
			inside = append(inside, h)
		}
	}
	if len(inside) == 0 {
		return []grant{{path: root, access: access}}
	}
	out := []grant{{path: root, access: accessList}}
	entries, err := os.ReadDir(root)
	if err != nil {
		return out
	}
	for _, e := range entries {
		child := filepath.Join(root, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			// A rule on a link is a rule on its target: a link to the home
			// directory would grant the hidden paths in it. The target is
			// granted where it really is, if it may be.
			continue
		}
		out = append(out, grantBeneath(child, access, inside)...)
	}
	return out
}

// resolveAll resolves symbolic links in each path, as the kernel judges
// the real file, dropping duplicates; missing paths are kept as written
// (a rule on them fails quietly).
func resolveAll(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		r := realPath(p)
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}
