package app

import (
	"os"
	"path/filepath"
	"strings"
)

// LeadingPath reads the input's first word as a terminal pastes a file
// dragged into it — absolute, possibly in single or double quotes, or
// with its spaces and quotes escaped by backslashes — and returns the
// path it names when that file exists. A picture dragged in, then a
// question typed after it ("/tmp/shot.png what is this?") is a message
// that attaches the picture, not the slash command "/tmp/shot.png".
func LeadingPath(line string) (string, bool) {
	p, _ := PastedWord(strings.TrimLeft(line, " \t\n"))
	// A slash command is one word without a second "/"; a path dragged
	// in has one. (/run, /tmp and the like exist, and a plugin may name
	// a command after them.)
	if !filepath.IsAbs(p) || !strings.Contains(strings.TrimRight(p[1:], "/"), "/") {
		return "", false
	}
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// PastedWord unquotes the word s starts with as a shell (and so a
// terminal pasting a path) writes it: 'single quoted', "double quoted"
// (\" and \\ escaped), or bare with backslash escapes ("my\ shot.png").
// rest is what follows the word. A quote left open ends the word at the
// end of s.
func PastedWord(s string) (word, rest string) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			return b.String(), s[i:]
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				return b.String(), ""
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				b.WriteByte(s[i])
				i++
			}
			i++ // the closing quote
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), ""
}
