package claude

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Matcher selects what a hook group runs for: a tool name on tool
// events, the source on SessionStart, the trigger on PreCompact, the
// reason on SessionEnd. As in Claude Code: "", "*" or no matcher match
// everything; a value of only letters, digits, "_" and "|" is an exact
// name or a "|" list; anything else is an unanchored regular expression
// (`mcp__.*`, `Notebook.*`). Matching is case-sensitive.
type Matcher struct {
	source string
	all    bool
	names  []string
	re     *regexp.Regexp
}

var plainMatcher = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_|]+$`) })

// CompileMatcher reads a matcher. Claude's patterns are JavaScript
// regular expressions; Go's syntax covers the forms hooks use, and a
// pattern it cannot read is an error naming the problem.
func CompileMatcher(s string) (Matcher, error) {
	m := Matcher{source: s}
	switch {
	case s == "" || s == "*":
		m.all = true
	case plainMatcher().MatchString(s):
		m.names = strings.Split(s, "|")
	default:
		re, err := regexp.Compile(s)
		if err != nil {
			return m, err
		}
		m.re = re
	}
	return m, nil
}

// Match reports whether the matcher selects value.
func (m Matcher) Match(value string) bool {
	switch {
	case m.all:
		return true
	case m.re != nil:
		return m.re.MatchString(value)
	}
	return slices.Contains(m.names, value)
}

// String is the matcher as written.
func (m Matcher) String() string { return m.source }
