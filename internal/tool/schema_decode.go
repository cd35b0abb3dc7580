package tool

// Decoding JSON for validation. Every tool call decodes its input once to
// check it, so the common case takes a short path: a small scanner that
// builds the same values encoding/json does with UseNumber (objects as
// map[string]any, numbers as json.Number), without reflection. Anything it
// does not handle simply — a string with escapes or bytes that are not
// UTF-8, nesting deeper than encoding/json allows, or any error — goes to
// encoding/json, whose result and error text are then used.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// decodeJSON reads one JSON value, numbers as json.Number (exact).
func decodeJSON(raw []byte) (any, error) {
	if v, ok := scanJSON(raw); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("invalid character after top-level value")
	}
	return v, nil
}

// scanMaxDepth is encoding/json's nesting limit; deeper input is left to it.
const scanMaxDepth = 10000

// scanJSON decodes raw on the short path; ok is false when it cannot.
func scanJSON(raw []byte) (v any, ok bool) {
	s := scanner{b: raw}
	s.space()
	if v, ok = s.value(0); !ok {
		return nil, false
	}
	s.space()
	return v, s.i == len(s.b)
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) literal(word string, v any) (any, bool) {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return nil, false
	}
	s.i += len(word)
	return v, true
}

func (s *scanner) value(depth int) (any, bool) {
	if s.i >= len(s.b) {
		return nil, false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(depth + 1)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		str, ok := s.str()
		return str, ok
	case c == 't':
		return s.literal("true", true)
	case c == 'f':
		return s.literal("false", false)
	case c == 'n':
		return s.literal("null", nil)
	case c == '-' || isDigit(c):
		return s.number()
	}
	return nil, false
}

func (s *scanner) object(depth int) (any, bool) {
	if depth > scanMaxDepth {
		return nil, false
	}
	s.i++ // {
	m := map[string]any{}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return m, true
	}
	for {
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return nil, false
		}
		k, ok := s.str()
		if !ok {
			return nil, false
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return nil, false
		}
		s.i++
		s.space()
		v, ok := s.value(depth)
		if !ok {
			return nil, false
		}
		m[k] = v
		more, ok := s.next('}')
		if !ok {
			return nil, false
		}
		if !more {
			return m, true
		}
	}
}

func (s *scanner) array(depth int) (any, bool) {
	if depth > scanMaxDepth {
		return nil, false
	}
	s.i++ // [
	a := []any{}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return a, true
	}
	for {
		v, ok := s.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		more, ok := s.next(']')
		if !ok {
			return nil, false
		}
		if !more {
			return a, true
		}
	}
}

// next reads what follows a member or an element: a comma, when more
// follow, or close, which ends the object or array; anything else is
// malformed (ok false).
func (s *scanner) next(close byte) (more, ok bool) {
	s.space()
	if s.i >= len(s.b) {
		return false, false
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		s.space()
		return true, true
	case close:
		s.i++
		return false, true
	}
	return false, false
}

// str reads a string. One with escapes or non-UTF-8 bytes is decoded by
// encoding/json, so that it means exactly what it would there.
func (s *scanner) str() (string, bool) {
	start := s.i
	s.i++ // "
	simple := true
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			body := s.b[start+1 : s.i-1]
			if simple && utf8.Valid(body) {
				return string(body), true
			}
			var out string
			if json.Unmarshal(s.b[start:s.i], &out) != nil {
				return "", false
			}
			return out, true
		case c == '\\':
			simple = false
			s.i += 2
		case c < 0x20:
			return "", false
		default:
			s.i++
		}
	}
	return "", false
}

// number reads a number as its text, checking JSON's grammar.
func (s *scanner) number() (any, bool) {
	start := s.i
	if s.b[s.i] == '-' {
		s.i++
	}
	digits := func() int {
		n := 0
		for s.i < len(s.b) && isDigit(s.b[s.i]) {
			s.i++
			n++
		}
		return n
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return nil, false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return json.Number(s.b[start:s.i]), true
}
