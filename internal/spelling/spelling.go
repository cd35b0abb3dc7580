// Package spelling measures how far a misspelt name is from a known one,
// for the "did you mean" of config keys, manifest fields and hook
// actions. One implementation, so that every suggestion judges alike.
package spelling

import "strings"

// Distance is the Levenshtein distance of a and b, counted in bytes: the
// fewest insertions, deletions and substitutions that turn a into b.
// Names are short; the cost is len(a)×len(b).
func Distance(a, b string) int {
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

// Nearest is the candidate closest to name, case aside, when it is at
// most maxEdits edits away (the first of equally close ones), or "": the
// "did you mean" of a misspelt key, event or subcommand.
func Nearest(name string, candidates []string, maxEdits int) string {
	best, bestD := "", maxEdits+1
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if d := Distance(lower, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
