// Package tomlite reads the small subset of TOML that agent plugins
// write: Gemini CLI's command files (description, prompt) and policy
// files ([[rule]] tables). go.mod has no TOML library, and these files
// need only key = value pairs with strings (basic, literal and both
// multi-line forms), integers, floats, booleans and arrays of them,
// [table] and [[array of tables]] headers with dotted names, and
// comments. Anything else (inline tables, dates) is an error naming the
// line, so a file synaps cannot read is said, never half-read.
package tomlite

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem at a line of the text.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse reads TOML text into a map: strings are string, integers int64,
// floats float64, booleans bool, arrays []any, tables map[string]any and
// arrays of tables []map[string]any.
func Parse(text string) (map[string]any, error) {
	p := &parser{src: strings.TrimPrefix(text, "\ufeff"), line: 1}
	return p.parse()
}

type parser struct {
	src  string
	pos  int
	line int
}

func (p *parser) errf(format string, a ...any) error {
	return &Error{Line: p.line, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

// skipSpace skips blanks and tabs on the line.
func (p *parser) skipSpace() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// skipComment skips a # comment to the end of the line.
func (p *parser) skipComment() {
	if p.peek() == '#' {
		for !p.eof() && p.src[p.pos] != '\n' {
			p.pos++
		}
	}
}

// endLine requires the rest of the line to be blank or a comment.
func (p *parser) endLine() error {
	p.skipSpace()
	p.skipComment()
	if p.eof() {
		return nil
	}
	if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
		return nil
	}
	if p.src[p.pos] == '\n' {
		p.pos++
		p.line++
		return nil
	}
	return p.errf("unexpected %q after the value; one key = value a line", p.src[p.pos])
}

// skipBlank skips whitespace, newlines and comments.
func (p *parser) skipBlank() {
	for !p.eof() {
		switch p.src[p.pos] {
		case ' ', '\t', '\r':
			p.pos++
		case '\n':
			p.pos++
			p.line++
		case '#':
			p.skipComment()
		default:
			return
		}
	}
}

func (p *parser) parse() (map[string]any, error) {
	root := map[string]any{}
	cur := root
	for {
		p.skipBlank()
		if p.eof() {
			return root, nil
		}
		if p.peek() == '[' {
			t, err := p.header(root)
			if err != nil {
				return nil, err
			}
			cur = t
			if err := p.endLine(); err != nil {
				return nil, err
			}
			continue
		}
		keys, err := p.key()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.peek() != '=' {
			return nil, p.errf("expected = after the key %q", strings.Join(keys, "."))
		}
		p.pos++
		p.skipSpace()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		t, err := p.table(cur, keys[:len(keys)-1])
		if err != nil {
			return nil, err
		}
		last := keys[len(keys)-1]
		if _, dup := t[last]; dup {
			return nil, p.errf("the key %q is set twice", strings.Join(keys, "."))
		}
		t[last] = v
		if err := p.endLine(); err != nil {
			return nil, err
		}
	}
}

// header reads [a.b] or [[a.b]] and returns the table it opens.
func (p *parser) header(root map[string]any) (map[string]any, error) {
	array := strings.HasPrefix(p.src[p.pos:], "[[")
	if array {
		p.pos += 2
	} else {
		p.pos++
	}
	p.skipSpace()
	keys, err := p.key()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(p.src[p.pos:], closing) {
		return nil, p.errf("expected %s to close the table header", closing)
	}
	p.pos += len(closing)
	if !array {
		return p.table(root, keys)
	}
	parent, err := p.table(root, keys[:len(keys)-1])
	if err != nil {
		return nil, err
	}
	last := keys[len(keys)-1]
	t := map[string]any{}
	switch old := parent[last].(type) {
	case nil:
		parent[last] = []map[string]any{t}
	case []map[string]any:
		parent[last] = append(old, t)
	default:
		return nil, p.errf("%q is already a value, not an array of tables", strings.Join(keys, "."))
	}
	return t, nil
}

// table walks (creating) the tables keys name under t; an array of
// tables walks into its last table.
func (p *parser) table(t map[string]any, keys []string) (map[string]any, error) {
	for i, k := range keys {
		switch v := t[k].(type) {
		case nil:
			n := map[string]any{}
			t[k] = n
			t = n
		case map[string]any:
			t = v
		case []map[string]any:
			t = v[len(v)-1]
		default:
			return nil, p.errf("%q is a value, not a table", strings.Join(keys[:i+1], "."))
		}
	}
	return t, nil
}

// key reads a dotted key of bare and quoted parts.
func (p *parser) key() ([]string, error) {
	var keys []string
	for {
		p.skipSpace()
		var k string
		switch c := p.peek(); {
		case c == '"':
			s, err := p.basic()
			if err != nil {
				return nil, err
			}
			k = s
		case c == '\'':
			s, err := p.literal()
			if err != nil {
				return nil, err
			}
			k = s
		default:
			start := p.pos
			for !p.eof() && isBare(p.src[p.pos]) {
				p.pos++
			}
			if start == p.pos {
				return nil, p.errf("expected a key, found %q", string(c))
			}
			k = p.src[start:p.pos]
		}
		keys = append(keys, k)
		p.skipSpace()
		if p.peek() != '.' {
			return keys, nil
		}
		p.pos++
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value reads one value.
func (p *parser) value() (any, error) {
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, `"""`):
		return p.multiBasic()
	case strings.HasPrefix(rest, `'''`):
		return p.multiLiteral()
	case strings.HasPrefix(rest, `"`):
		return p.basic()
	case strings.HasPrefix(rest, `'`):
		return p.literal()
	case strings.HasPrefix(rest, "["):
		return p.array()
	case strings.HasPrefix(rest, "{"):
		return nil, p.errf("inline tables ({…}) are not supported here; write a [table] instead")
	case strings.HasPrefix(rest, "true") && !followsBare(rest, 4):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(rest, "false") && !followsBare(rest, 5):
		p.pos += 5
		return false, nil
	}
	start := p.pos
	for !p.eof() && (isBare(p.src[p.pos]) || strings.IndexByte("+.", p.src[p.pos]) >= 0) {
		p.pos++
	}
	word := strings.ReplaceAll(p.src[start:p.pos], "_", "")
	if word == "" {
		return nil, p.errf("expected a value (a string, number, boolean or array)")
	}
	if n, err := strconv.ParseInt(word, 0, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(word, 64); err == nil {
		return f, nil
	}
	return nil, p.errf("%q is not a value synaps reads (strings need quotes)", p.src[start:p.pos])
}

func followsBare(s string, n int) bool { return len(s) > n && isBare(s[n]) }

// array reads [v, v, …], across lines, comments allowed.
func (p *parser) array() (any, error) {
	p.pos++ // [
	out := []any{}
	for {
		p.skipBlank()
		if p.peek() == ']' {
			p.pos++
			return out, nil
		}
		if p.eof() {
			return nil, p.errf("the array is not closed with ]")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skipBlank()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
		case 0:
			return nil, p.errf("the array is not closed with ]")
		default:
			return nil, p.errf("expected , or ] in the array")
		}
	}
}

// basic reads a "…" string with escapes.
func (p *parser) basic() (string, error) {
	p.pos++
	var b strings.Builder
	for {
		if p.eof() || p.src[p.pos] == '\n' {
			return "", p.errf(`the string is not closed with "`)
		}
		c := p.src[p.pos]
		switch c {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// literal reads a '…' string, taken as written.
func (p *parser) literal() (string, error) {
	p.pos++
	end := strings.IndexAny(p.src[p.pos:], "'\n")
	if end < 0 || p.src[p.pos+end] != '\'' {
		return "", p.errf("the string is not closed with '")
	}
	s := p.src[p.pos : p.pos+end]
	p.pos += end + 1
	return s, nil
}

// multiBasic reads a """…""" string: a newline right after the opening
// quotes is dropped, and a backslash at a line's end joins the lines.
func (p *parser) multiBasic() (string, error) {
	p.pos += 3
	p.newlineAfterOpen()
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errf(`the string is not closed with """`)
		}
		if strings.HasPrefix(p.src[p.pos:], `"""`) {
			p.pos += 3
			// Up to two more quotes belong to the string.
			for i := 0; i < 2 && p.peek() == '"'; i++ {
				b.WriteByte('"')
				p.pos++
			}
			return b.String(), nil
		}
		// Plain text up to the next quote, backslash or newline, at once.
		if n := strings.IndexAny(p.src[p.pos:], "\"\\\n"); n != 0 {
			if n < 0 {
				n = len(p.src) - p.pos
			}
			b.WriteString(p.src[p.pos : p.pos+n])
			p.pos += n
			continue
		}
		c := p.src[p.pos]
		switch {
		case c == '\\' && p.lineEndingBackslash():
			// skipped by lineEndingBackslash
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			if c == '\n' {
				p.line++
			}
			b.WriteByte(c)
			p.pos++
		}
	}
}

// multiLiteral reads a ”'…”' string, taken as written.
func (p *parser) multiLiteral() (string, error) {
	p.pos += 3
	p.newlineAfterOpen()
	end := strings.Index(p.src[p.pos:], "'''")
	if end < 0 {
		return "", p.errf("the string is not closed with '''")
	}
	for end+3 < len(p.src)-p.pos && p.src[p.pos+end+3] == '\'' && end < len(p.src) {
		end++ // ''''' ends with quotes in the string
	}
	s := p.src[p.pos : p.pos+end]
	p.line += strings.Count(s, "\n")
	p.pos += end + 3
	return s, nil
}

func (p *parser) newlineAfterOpen() {
	if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
	} else if p.peek() == '\n' {
		p.pos++
		p.line++
	}
}

// lineEndingBackslash skips a backslash that ends a line of a """
// string, with the whitespace and newlines after it.
func (p *parser) lineEndingBackslash() bool {
	i := p.pos + 1
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t' || p.src[i] == '\r') {
		i++
	}
	if i >= len(p.src) || p.src[i] != '\n' {
		return false
	}
	for i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[i]) >= 0 {
		if p.src[i] == '\n' {
			p.line++
		}
		i++
	}
	p.pos = i
	return true
}

// escape reads one backslash escape into b.
func (p *parser) escape(b *strings.Builder) error {
	if p.pos+1 >= len(p.src) {
		return p.errf("the string ends in a backslash")
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(0x1b)
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if p.pos+n > len(p.src) {
			return p.errf(`\%c needs %d hex digits`, c, n)
		}
		r, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
		if err != nil {
			return p.errf(`\%c needs %d hex digits`, c, n)
		}
		b.WriteRune(rune(r))
		p.pos += n
	default:
		return p.errf(`unknown escape \%c in a string (write \\ for a backslash, or use a '…' literal string)`, c)
	}
	return nil
}
