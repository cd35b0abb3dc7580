package command

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// quoteArgs puts the arguments into a !`cmd` line so that the shell reads
// them as data: each $ARGUMENTS and $1…$9 is replaced by the argument
// quoted for the context it stands in. Outside quotes an argument becomes
// one quoted word ($ARGUMENTS one per word of it, as the shell splits an
// unquoted variable); inside "…" the characters special there (\ " $ `)
// are escaped; inside '…' each ' is closed, escaped and reopened. A $(…)
// or (…) starts a fresh context, whatever quotes surround it.
func quoteArgs(line, args string, fields []string) string {
	var b strings.Builder
	// stack holds, for each open (…) or $(…), the quote it is in: 0,
	// '\'' or '"'. The line itself is the bottom frame.
	stack := []byte{0}
	for i := 0; i < len(line); {
		q := &stack[len(stack)-1]
		if line[i] == '$' {
			if rest, ok := strings.CutPrefix(line[i:], "$ARGUMENTS"); ok {
				if *q == 0 {
					words := make([]string, len(strings.Fields(args)))
					for j, w := range strings.Fields(args) {
						words[j] = shellWord(w)
					}
					b.WriteString(strings.Join(words, " "))
				} else {
					b.WriteString(quoteIn(*q, args))
				}
				i = len(line) - len(rest)
				continue
			}
			if i+1 < len(line) && line[i+1] >= '1' && line[i+1] <= '9' {
				arg := ""
				if n := int(line[i+1] - '0'); n <= len(fields) {
					arg = fields[n-1]
				}
				if *q == 0 {
					if arg != "" {
						b.WriteString(shellWord(arg))
					}
				} else {
					b.WriteString(quoteIn(*q, arg))
				}
				i += 2
				continue
			}
		}
		c := line[i]
		switch *q {
		case '\'':
			if c == '\'' {
				*q = 0
			}
		case '"':
			switch {
			case c == '\\' && i+1 < len(line):
				b.WriteString(line[i : i+2])
				i += 2
				continue
			case c == '"':
				*q = 0
			case c == '$' && i+1 < len(line) && line[i+1] == '(':
				b.WriteString("$(")
				i += 2
				stack = append(stack, 0)
				continue
			}
		default:
			switch {
			case c == '\\' && i+1 < len(line):
				b.WriteString(line[i : i+2])
				i += 2
				continue
			case c == '\'' || c == '"':
				*q = c
			case c == '(':
				stack = append(stack, 0)
			case c == ')' && len(stack) > 1:
				stack = stack[:len(stack)-1]
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// shellWord quotes s as one shell word (unchanged when it needs no
// quotes, so `gh pr view 12` stays as a rule would name it).
func shellWord(s string) string {
	if q, err := syntax.Quote(s, syntax.LangPOSIX); err == nil {
		return q
	}
	// Not printable in POSIX quoting: single quotes keep every byte but
	// NUL, which no shell word can hold.
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, "\x00", ""), "'", `'\''`) + "'"
}

// quoteIn escapes s for the inside of the quote q: a double or a single
// quote.
func quoteIn(q byte, s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if q == '\'' {
		return strings.ReplaceAll(s, "'", `'\''`)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\\"$`", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
