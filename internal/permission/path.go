package permission

import (
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// Path rules (Read(…), Edit(…)) are judged on two paths: the path as the
// call wrote it and its real path, links resolved. A link the project
// ships (docs/x -> ~/.bashrc, aws -> ~/.aws) must not carry a call past
// the rule that guards its target, nor into the reach of a rule written
// for the link's own place:
//
//   - a deny or ask rule covers the call when either path matches it, so
//     Read(~/.aws/**) refuses aws/credentials;
//   - an allow rule covers it only when both do, so Edit(docs/**) does not
//     allow an edit of docs/x that lands in ~/.bashrc.
//
// The real path is matched against the pattern anchored at the real
// project and home directories, so a project reached through a link (a
// checkout under a linked /tmp) keeps its relative rules.

// pathCovers reports whether a Read/Edit specifier covers the call's path
// as written (written) and as resolved (real).
func pathCovers(spec string, c Call, workDir, home string) (written, real bool) {
	p := c.path(workDir, home)
	written = pathMatches(spec, p, workDir, home)
	real = pathMatches(spec, realPath(p), realDir(workDir), realDir(home))
	return written, real
}

// isPathRule: the rule has a path specifier (Read(docs/**), Edit(~/x)).
func (r Rule) isPathRule() bool {
	k := kindOf(r.Tool)
	return r.Spec != "" && (k == kindRead || k == kindEdit)
}

// matchesPath is matches for a path rule, as deny and ask rules (and a
// hook's `if` filter) take it: the path as written or the real one.
func (r Rule) matchesPath(c Call, workDir, home string) bool {
	written, real := pathCovers(r.Spec, c, workDir, home)
	return written || real
}

// allows reports whether an allow rule covers a call that is not a bash
// command: a path rule must match both the written and the real path.
func (r Rule) allows(c Call, workDir, home string) bool {
	if !r.isPathRule() {
		return r.matches(c, "", workDir, home)
	}
	if !r.matchesTool(c) {
		return false
	}
	written, real := pathCovers(r.Spec, c, workDir, home)
	return written && real
}

// DenyRead says why the file at path may not be read ("" when it may): the
// Read deny rule covering it as written or as resolved, e.g. "deny rule
// Read(~/.aws/**) (--disallowedTools)". Only deny rules count. A relative
// path is in the project.
func (p *Policy) DenyRead(path string) string {
	judge := p.DenyReads()
	if judge == nil {
		return ""
	}
	path = absPath(path, p.workDir, p.home)
	fi, err := os.Lstat(path)
	return judge(path, err != nil || fi.Mode()&os.ModeSymlink != 0)
}

// DenyReads returns DenyRead for the files one tool call reaches beyond
// the path it names — grep and find walking a directory, ls listing one
// — so that a directory the call may read does not hand out a file inside
// it (or a link in it to a file elsewhere) that a deny rule guards. Only
// deny rules count: the call itself was judged, and asked about, already.
// It is nil when no rule denies reading anything. The judge takes an
// absolute path and whether it may itself be a link (a directory
// entry's type says so without a stat; when unsure, say true), and it
// remembers, for the call, the real path of each directory it resolved:
// a walk reaches many files of one directory.
func (p *Policy) DenyReads() func(path string, link bool) string {
	p.mu.Lock()
	deny := p.rules.Deny
	p.mu.Unlock()
	c := Call{Name: "read", RuntimeName: "read", Builtin: true, ReadOnly: true}
	var rules []*Rule
	for i := range deny {
		if deny[i].matchesTool(c) {
			rules = append(rules, &deny[i])
		}
	}
	if len(rules) == 0 {
		return nil
	}
	workDir, home := p.workDir, p.home
	realWork, realHome := realDir(workDir), realDir(home)
	dirs := map[string]string{} // directory -> its real path, for this call
	var mu sync.Mutex
	return func(path string, link bool) string {
		path = filepath.Clean(path)
		real := ""
		if !link {
			// Not a link itself: its real path is its directory's.
			dir := filepath.Dir(path)
			mu.Lock()
			rd, ok := dirs[dir]
			if !ok {
				rd = realPath(dir)
				dirs[dir] = rd
			}
			mu.Unlock()
			real = filepath.Join(rd, filepath.Base(path))
		} else {
			real = realPath(path)
		}
		for _, r := range rules {
			if r.Spec == "" || pathMatches(r.Spec, path, workDir, home) || pathMatches(r.Spec, real, realWork, realHome) {
				return "deny rule " + r.describe()
			}
		}
		return ""
	}
}

// globs caches the compiled form of path patterns: a walk matches every
// file it reaches against the same few rules.
var globs sync.Map // pattern string -> *regexp.Regexp (nil: does not compile)

// compileGlob compiles an absolute glob pattern, once.
func compileGlob(pat string) *regexp.Regexp {
	if re, ok := globs.Load(pat); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(`^` + globRegexp(pat) + `$`)
	if err != nil {
		re = nil
	}
	globs.Store(pat, re)
	return re
}

// realDir is realPath for the project or home directory; "" (no home
// known) stays "".
func realDir(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Clean(realPath(dir))
}

// maxLinks bounds the links realPath follows, as the kernel's ELOOP does.
const maxLinks = 40

// realPath resolves the links of path, or of its nearest existing
// ancestor for a file not yet created. A dangling link is followed to
// where it points: writing through it creates its target.
func realPath(path string) string {
	for range maxLinks {
		rest := ""
		p := path
		for {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				return filepath.Join(real, rest)
			}
			if target, err := os.Readlink(p); err == nil {
				// A link whose target does not exist (yet).
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(p), target)
				}
				path = filepath.Join(target, rest)
				break
			}
			parent := filepath.Dir(p)
			if parent == p {
				return filepath.Join(p, rest)
			}
			rest = filepath.Join(filepath.Base(p), rest)
			p = parent
		}
	}
	return path // a loop of links: nothing real to name
}
