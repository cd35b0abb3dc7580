package plugin

import (
	"fmt"
	"strconv"
	"strings"
)

// Semantic versions and npm-style ranges, as Claude Code's plugin
// "dependencies" constrain them ("^2.0", "~2.1.0", ">=1.2 <2",
// "1.x || 2.x"). Small on purpose: only what dependency checks need.

// version is a parsed MAJOR.MINOR.PATCH[-PRE]; build metadata is dropped.
type version struct {
	n   [3]int
	pre string
}

// parseVersion reads "1.2.3", "v1.2.3", "1.2.3-beta.1"; missing parts
// are 0 ("2" is 2.0.0).
func parseVersion(s string) (version, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	s, _, _ = strings.Cut(s, "+")
	var v version
	s, v.pre, _ = strings.Cut(s, "-")
	parts := strings.Split(s, ".")
	if s == "" || len(parts) > 3 {
		return v, fmt.Errorf("%q is not a version (MAJOR.MINOR.PATCH)", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, fmt.Errorf("%q is not a version (MAJOR.MINOR.PATCH)", s)
		}
		v.n[i] = n
	}
	return v, nil
}

func (a version) compare(b version) int {
	for i := range 3 {
		if a.n[i] != b.n[i] {
			if a.n[i] < b.n[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.pre == b.pre:
		return 0
	case a.pre == "": // a release is above its pre-releases
		return 1
	case b.pre == "":
		return -1
	case a.pre < b.pre:
		return -1
	}
	return 1
}

// comparator is one "OP VERSION" of a range.
type comparator struct {
	op string // "<", "<=", ">", ">=", "="
	v  version
}

func (c comparator) ok(v version) bool {
	d := v.compare(c.v)
	switch c.op {
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	}
	return d == 0
}

// VersionRange is a parsed range: alternatives (||) of comparator sets
// that must all hold.
type VersionRange struct {
	text string
	alts [][]comparator
}

func (r VersionRange) String() string { return r.text }

// ParseVersionRange reads an npm-style range: "", "*" and "latest" take
// any version; "^1.2", "~1.2.3", "1.x", ">=1 <2", "1.2.3", "a || b".
func ParseVersionRange(s string) (VersionRange, error) {
	r, err := parseRange(s)
	if err != nil {
		return r, fmt.Errorf("%q is not a version range", strings.TrimSpace(s))
	}
	return r, nil
}

func parseRange(s string) (VersionRange, error) {
	r := VersionRange{text: strings.TrimSpace(s)}
	for _, alt := range strings.Split(r.text, "||") {
		var set []comparator
		fields := strings.Fields(alt)
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			// "1.2 - 2.3" is a hyphen range.
			if i+2 < len(fields) && fields[i+1] == "-" {
				lo, err := partial(f)
				if err != nil {
					return r, err
				}
				hi, err := partial(fields[i+2])
				if err != nil {
					return r, err
				}
				set = append(set, comparator{">=", lo.v})
				set = append(set, hi.upperInclusive()...)
				i += 2
				continue
			}
			cs, err := parseComparator(f)
			if err != nil {
				return r, err
			}
			set = append(set, cs...)
		}
		r.alts = append(r.alts, set)
	}
	return r, nil
}

// Allows reports whether version v is in the range. A pre-release is in
// only when the range names a pre-release of the same MAJOR.MINOR.PATCH
// (npm's rule), so "^2.0" does not take 2.1.0-beta.
func (r VersionRange) Allows(v string) bool {
	ver, err := parseVersion(v)
	if err != nil {
		return false
	}
	for _, set := range r.alts {
		ok := true
		prereleaseNamed := false
		for _, c := range set {
			if !c.ok(ver) {
				ok = false
				break
			}
			if c.v.pre != "" && c.v.n == ver.n {
				prereleaseNamed = true
			}
		}
		if ok && (ver.pre == "" || prereleaseNamed) {
			return true
		}
	}
	return false
}

// partialVersion is a version with wildcards: "1", "1.2", "1.x", "*".
type partialVersion struct {
	v     version
	parts int // how many of MAJOR, MINOR, PATCH are given
}

func partial(s string) (partialVersion, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if s == "" || s == "*" || s == "x" || s == "X" || s == "latest" {
		return partialVersion{}, nil
	}
	core, pre, _ := strings.Cut(s, "-")
	ps := strings.Split(core, ".")
	if len(ps) > 3 {
		return partialVersion{}, fmt.Errorf("%q is not a version range (such as ^2.0, ~2.1.0, >=1.2 <2)", s)
	}
	var p partialVersion
	for i, x := range ps {
		if x == "x" || x == "X" || x == "*" {
			break
		}
		n, err := strconv.Atoi(x)
		if err != nil || n < 0 {
			return p, fmt.Errorf("%q is not a version range (such as ^2.0, ~2.1.0, >=1.2 <2)", s)
		}
		p.v.n[i] = n
		p.parts = i + 1
	}
	if p.parts == 3 {
		p.v.pre = pre
	}
	return p, nil
}

// upperInclusive is "<= p" with wildcards: "<=1.2" is "<1.3.0".
func (p partialVersion) upperInclusive() []comparator {
	switch p.parts {
	case 0:
		return nil
	case 3:
		return []comparator{{"<=", p.v}}
	}
	up := p.v
	up.n[p.parts-1]++
	return []comparator{{"<", up}}
}

func parseComparator(f string) ([]comparator, error) {
	op := ""
	for _, o := range []string{">=", "<=", ">", "<", "=", "^", "~"} {
		if strings.HasPrefix(f, o) {
			op, f = o, f[len(o):]
			break
		}
	}
	p, err := partial(f)
	if err != nil {
		return nil, err
	}
	lo := p.v
	switch op {
	case "^":
		if p.parts == 0 {
			return nil, nil
		}
		up := version{}
		switch {
		case lo.n[0] > 0 || p.parts == 1:
			up.n[0] = lo.n[0] + 1
		case lo.n[1] > 0 || p.parts == 2:
			up.n[1] = lo.n[1] + 1
		default:
			up.n[2] = lo.n[2] + 1
		}
		return []comparator{{">=", lo}, {"<", up}}, nil
	case "~":
		if p.parts == 0 {
			return nil, nil
		}
		up := version{}
		up.n[0] = lo.n[0] + 1
		if p.parts >= 2 {
			up.n[0], up.n[1] = lo.n[0], lo.n[1]+1
		}
		return []comparator{{">=", lo}, {"<", up}}, nil
	case ">=":
		return []comparator{{">=", lo}}, nil
	case ">":
		if p.parts < 3 && p.parts > 0 { // ">1.2" is ">=1.3.0"
			up := lo
			up.n[p.parts-1]++
			return []comparator{{">=", up}}, nil
		}
		return []comparator{{">", lo}}, nil
	case "<":
		return []comparator{{"<", lo}}, nil
	case "<=":
		return p.upperInclusive(), nil
	}
	// "=1.2.3", "1.2.3", "1.x", "*"
	if p.parts == 3 {
		return []comparator{{"=", lo}}, nil
	}
	if p.parts == 0 {
		return nil, nil
	}
	return append([]comparator{{">=", lo}}, p.upperInclusive()...), nil
}
