package tool

// Preparing a model's tool input. The agent does this before any hook
// sees the input, so guards and extensions only ever get an input the tool
// would accept: one that is a JSON object, nests at most MaxInputDepth
// levels and matches the tool's schema. Top-level properties the schema
// does not allow are dropped rather than refused: models trained on other
// CLIs send extra fields (a "description" to bash) and the tool would
// ignore them anyway; a wrong type stays an error.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// MaxInputDepth is how deeply a tool input may nest objects and arrays
// (the input object itself is level 1). Real inputs nest a few levels; a
// deep one is refused before any hook sees it, because the JSON parsers of
// other languages give up on a few thousand levels (Python's raises
// RecursionError), and a guard that crashes on the input cannot guard.
const MaxInputDepth = 64

// Prepare checks a model's input and returns what the hooks and the tool
// get: the input with the top-level properties the schema does not allow
// removed (when its top level says additionalProperties: false), or an
// *InputError the model can act on. Empty input counts as {}.
func (s *Schema) Prepare(input json.RawMessage) (json.RawMessage, error) {
	return s.prepare(s.tool, input)
}

func (s *Schema) prepare(name string, input json.RawMessage) (json.RawMessage, error) {
	raw := bytes.TrimSpace(input)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if NestingDepth(raw, MaxInputDepth) > MaxInputDepth {
		return nil, &InputError{Tool: name, Violations: []Violation{{
			Message: fmt.Sprintf("input nests objects and arrays more than %d levels deep; send a flatter input", MaxInputDepth),
		}}}
	}
	obj, err := parseInput(name, raw)
	if err != nil {
		return nil, err
	}
	if unknown := s.unknownTopLevel(obj); len(unknown) > 0 {
		for _, k := range unknown {
			delete(obj, k)
		}
		if raw, err = withoutKeys(raw, unknown); err != nil {
			return nil, &InputError{Tool: name, Violations: []Violation{{Message: "input is not valid JSON: " + err.Error()}}}
		}
	}
	if err := s.validateDoc(name, obj); err != nil {
		return nil, err
	}
	return json.RawMessage(raw), nil
}

// unknownTopLevel lists the properties of obj the schema's top level does
// not allow: none unless it says additionalProperties: false, and then
// those neither in properties nor matching patternProperties. A top level
// that is only a "$ref" (as generators write: {"$ref":"#/$defs/Input"})
// is read through it.
func (s *Schema) unknownTopLevel(obj map[string]any) []string {
	top := s.root
	for top != nil && top.additional == nil && top.properties == nil && top.patternProperties == nil && len(top.refs) == 1 {
		top = top.refs[0]
	}
	if top == nil || top.additional == nil || !top.additional.never {
		return nil
	}
	var out []string
next:
	for k := range obj {
		if _, ok := top.properties[k]; ok {
			continue
		}
		for _, pp := range top.patternProperties {
			if pp.re.MatchString(k) {
				continue next
			}
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// withoutKeys re-encodes a JSON object without the named top-level keys,
// keeping every other value byte for byte.
func withoutKeys(raw []byte, keys []string) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	for _, k := range keys {
		delete(top, k)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(top); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// NestingDepth returns how deeply raw (JSON) nests objects and arrays,
// stopping early once it exceeds limit. Brackets inside strings do not
// count. The extension host bounds what it sends with it too.
func NestingDepth(raw []byte, limit int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case '}', ']':
			depth--
		}
	}
	return deepest
}
