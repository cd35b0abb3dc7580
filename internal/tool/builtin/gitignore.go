package builtin

import (
	"path/filepath"
	"strings"
)

// The gitignore rules the walker applies. They were go-git's
// plumbing/format/gitignore, which linked go-git's config reader, go-billy,
// gcfg and encoding/gob into the binary for its global-excludes lookup,
// which synaps never calls (docs/performance.md, binary size). This is
// the same matching, for the patterns of one file at a time.

// ignorePattern is one line of a .gitignore or .git/info/exclude file.
type ignorePattern struct {
	domain   []string // the directory of the file, relative to the work tree root
	parts    []string // the pattern split at "/"
	negated  bool     // "!pattern": re-includes what an earlier line ignored
	dirOnly  bool     // "pattern/": matches directories only
	anchored bool     // has a "/" before its last character: matched from domain down
}

// parseIgnorePattern parses a non-empty, non-comment line of an ignore
// file in directory domain.
func parseIgnorePattern(line string, domain []string) *ignorePattern {
	p := &ignorePattern{domain: append([]string(nil), domain...)}
	if strings.HasPrefix(line, "!") {
		p.negated, line = true, line[1:]
	}
	if !strings.HasSuffix(line, "\\ ") { // an escaped trailing space stays
		line = strings.TrimRight(line, " ")
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, line[:len(line)-1]
	}
	p.anchored = strings.Contains(line, "/")
	p.parts = strings.Split(line, "/")
	return p
}

// ignored reports whether path (components relative to the work tree
// root) is ignored by ps, listed from the least to the most specific:
// the last pattern that matches decides.
func ignored(ps []*ignorePattern, path []string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].matches(path, isDir) {
			return !ps[i].negated
		}
	}
	return false
}

// matches reports whether the pattern applies to path.
func (p *ignorePattern) matches(path []string, isDir bool) bool {
	if len(path) <= len(p.domain) {
		return false
	}
	for i, d := range p.domain {
		if path[i] != d {
			return false
		}
	}
	path = path[len(p.domain):]
	if p.anchored {
		return p.matchAnchored(path, isDir)
	}
	// A pattern without "/" matches a name at any depth; a directory's
	// match covers everything beneath it.
	for i, name := range path {
		if ok, err := filepath.Match(p.parts[0], name); err != nil {
			return false
		} else if ok {
			return !p.dirOnly || isDir || i < len(path)-1
		}
	}
	return false
}

// matchAnchored matches a pattern with "/" component by component from
// the domain down; "**" stands for any number of directories.
func (p *ignorePattern) matchAnchored(path []string, isDir bool) bool {
	matched, anyDepth := false, false
	for i, part := range p.parts {
		switch {
		case part == "":
			anyDepth = false // a leading or doubled "/"
			continue
		case part == "**":
			if i == len(p.parts)-1 {
				return matched && p.dirOrDeeper(path, isDir) // "a/**": everything in a
			}
			anyDepth = true
			continue
		case strings.Contains(part, "**"):
			return false
		case len(path) == 0:
			return false
		}
		if anyDepth {
			anyDepth, matched = false, false
			for len(path) > 0 && !matched {
				ok, err := filepath.Match(part, path[0])
				if err != nil {
					return false
				}
				matched, path = ok, path[1:]
			}
			continue
		}
		if ok, err := filepath.Match(part, path[0]); err != nil || !ok {
			return false
		}
		matched, path = true, path[1:]
	}
	return matched && p.dirOrDeeper(path, isDir)
}

// dirOrDeeper reports whether a match that left rest of the path over
// satisfies a trailing "/": the entry is a directory or lies inside one.
func (p *ignorePattern) dirOrDeeper(rest []string, isDir bool) bool {
	return !p.dirOnly || isDir || len(rest) > 0
}
