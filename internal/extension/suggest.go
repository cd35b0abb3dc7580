package extension

import (
	"strings"
	"unicode"
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

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// --- entry point ----------------------------------------------------------
