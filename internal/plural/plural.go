// Package plural writes counts whose noun agrees with the number: "1
// message", "2 messages". Every count synaps shows a user goes through
// it, so that none reads "1 messages" or hedges with "message(s)".
package plural

import (
	"strconv"
	"strings"
)

// Count is n followed by word, made plural unless n is 1 (see Noun):
// Count(1, "message") is "1 message", Count(3, "match") "3 matches".
func Count(n int, word string) string {
	return strconv.Itoa(n) + " " + Noun(n, word)
}

// Noun is word for 1, and otherwise its plural by the English rule:
// "es" after s, x, ch and sh ("matches"), "ies" for a consonant and y
// ("entries"), else "s". For a word the rule misses, or a phrase whose
// verb agrees too, use Pick.
func Noun(n int, word string) string {
	if n == 1 || word == "" {
		return word
	}
	switch {
	case strings.HasSuffix(word, "s"), strings.HasSuffix(word, "x"),
		strings.HasSuffix(word, "ch"), strings.HasSuffix(word, "sh"):
		return word + "es"
	case strings.HasSuffix(word, "y") && len(word) > 1 && !strings.ContainsRune("aeiou", rune(word[len(word)-2])):
		return word[:len(word)-1] + "ies"
	}
	return word + "s"
}

// Pick is one for 1 and many otherwise: Pick(n, "plugin has", "plugins
// have").
func Pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
