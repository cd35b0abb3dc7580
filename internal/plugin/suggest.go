package plugin

import (
	"strings"
	"unicode"

	"github.com/synaps-cli/synaps/internal/spelling"
)

// suggest returns the candidate closest to s when it looks like a typo of
// it, else "": the same letters ignoring case and separators, one a prefix
// of the other (at least four letters), or one edit away (two for words of
// six letters or more).
func suggest(s string, candidates []string) string {
	norm := func(x string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || r == '.' || r == ' ' {
				return -1
			}
			return unicode.ToLower(r)
		}, x)
	}
	ns := norm(s)
	for _, c := range candidates {
		if norm(c) == ns {
			return c
		}
	}
	if len(ns) < 4 {
		return ""
	}
	for _, c := range candidates {
		nc := norm(c)
		if len(nc) >= 4 && (strings.HasPrefix(nc, ns) || strings.HasPrefix(ns, nc)) {
			return c
		}
	}
	maxD := 1
	if len(s) >= 6 {
		maxD = 2
	}
	best, bestD := "", maxD+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// --- entry point ----------------------------------------------------------

// editDistance is spelling.Distance, but never for names over 64 bytes:
// nobody misspells a key that long, and the table would be large.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	return spelling.Distance(a, b)
}
