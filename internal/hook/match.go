package hook

// Hook subscriptions: which hook an extension wants, optionally narrowed to
// one tool and to tool inputs that match. They come from the manifest
// (SynapsCLI dialect, extension.hooks) or from the initialize response
// (seed dialect, capabilities.hooks); both use the same shape:
//
//	{"hook": "before_tool_call", "tool": "bash", "match": {"input_contains": "rm -rf"}}
//	{"name": "before_tool_call"}
//	"before_tool_call"            (shorthand, accepted by this runtime)

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Subscription is one hook an extension subscribes to.
type Subscription struct {
	Hook string
	// Tool, when set, limits a tool hook to calls of that tool, named by its
	// model-facing name or its runtime name.
	Tool  string
	Match *Matcher
}

// Matcher narrows a tool-hook subscription by the tool input. All keys that
// are set must match.
type Matcher struct {
	// InputContains must be a substring of the compact JSON text of the
	// tool input.
	InputContains *string
	// InputEquals must equal the tool input as a JSON value (key order and
	// number spelling ignored). Stored compact.
	InputEquals json.RawMessage
}

// Matches reports whether the subscription applies to a tool call. Tool,
// when set, must equal the model-facing or the runtime name. InputContains
// must occur in the compact JSON text of the input, with strings written
// in their plain form (only '"', '\\' and control characters escaped, as
// serde_json and most JSON writers do), so "a<b" matches whichever
// way the input escaped it. InputEquals must equal the input as a JSON value:
// key order and number spelling do not matter. All given keys must match.
func (s Subscription) Matches(modelName, runtimeName string, input json.RawMessage) bool {
	if s.Tool != "" && s.Tool != modelName && s.Tool != runtimeName {
		return false
	}
	if s.Match == nil {
		return true
	}
	if s.Match.InputEquals != nil && !jsonEqual(s.Match.InputEquals, input) {
		return false
	}
	if s.Match.InputContains != nil && !strings.Contains(string(matchText(input)), *s.Match.InputContains) {
		return false
	}
	return true
}

// matchText is the compact JSON text input_contains searches: insignificant
// whitespace removed, string escapes normalised to the minimal form. Input
// that is not valid JSON is searched as given.
func matchText(input json.RawMessage) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, input); err != nil {
		return input
	}
	c := buf.Bytes()
	if bytes.IndexByte(c, '\\') < 0 {
		return c // no escapes to normalise
	}
	out := make([]byte, 0, len(c))
	for i := 0; i < len(c); {
		if c[i] != '"' {
			out = append(out, c[i])
			i++
			continue
		}
		// A string literal: find its end, skipping escaped characters.
		j := i + 1
		for j < len(c) && c[j] != '"' {
			if c[j] == '\\' {
				j++
			}
			j++
		}
		lit := c[i:min(j+1, len(c))]
		i = j + 1
		if bytes.IndexByte(lit, '\\') < 0 {
			out = append(out, lit...)
			continue
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			out = append(out, lit...)
			continue
		}
		out = appendMinimalQuoted(out, s)
	}
	return out
}

// appendMinimalQuoted writes s as a JSON string escaping only what JSON
// requires.
func appendMinimalQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if r < 0x20 {
				b = fmt.Appendf(b, `\u%04x`, r)
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return append(b, '"')
}

// jsonEqual reports whether two JSON texts hold the same value: objects
// compare by key regardless of order, numbers by value.
func jsonEqual(a, b json.RawMessage) bool {
	va, ok := decodeNumbers(a)
	if !ok {
		return false
	}
	vb, ok := decodeNumbers(b)
	if !ok {
		return false
	}
	return valueEqual(va, vb)
}

func decodeNumbers(raw json.RawMessage) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if dec.More() {
		return nil, false
	}
	return v, true
}

func valueEqual(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, va := range a {
			vb, ok := b[k]
			if !ok || !valueEqual(va, vb) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !valueEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		return ok && numberEqual(a, b)
	default: // string, bool, nil
		return a == b
	}
}

// numberEqual compares JSON numbers by value: exactly for integers that fit
// in 64 bits, otherwise as float64 (1 == 1.0 == 1e0).
func numberEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	ia, errA := strconv.ParseInt(string(a), 10, 64)
	ib, errB := strconv.ParseInt(string(b), 10, 64)
	if errA == nil && errB == nil {
		return ia == ib
	}
	fa, errA := strconv.ParseFloat(string(a), 64)
	fb, errB := strconv.ParseFloat(string(b), 64)
	return errA == nil && errB == nil && fa == fb
}
