package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// jsonObject is a decoded JSON object that remembers key order.
type jsonObject struct {
	keys []string // in first-seen order, unique
	dups []string // keys seen more than once
	vals map[string]json.RawMessage
}

// get returns a member; a null member counts as absent.
func (o *jsonObject) get(key string) (json.RawMessage, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// decodeObject decodes raw (valid JSON) as an object; ok is false when it is
// another kind of value.
func decodeObject(raw json.RawMessage) (*jsonObject, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, false
	}
	o := &jsonObject{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if _, seen := o.vals[key]; seen {
			if !slices.Contains(o.dups, key) {
				o.dups = append(o.dups, key)
			}
		} else {
			o.keys = append(o.keys, key)
		}
		o.vals[key] = bytes.TrimSpace(v)
	}
	return o, true
}

func (p *manifestParser) object(field string, v json.RawMessage, fix string) (*jsonObject, bool) {
	o, ok := decodeObject(v)
	if !ok && field != "" {
		p.fail(field, fmt.Sprintf("must be an object, got %s", kindOf(v)), fix)
	}
	return o, ok
}

func (p *manifestParser) array(field string, v json.RawMessage, fix string) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if kindOf(v) != "an array" || json.Unmarshal(v, &items) != nil {
		p.fail(field, fmt.Sprintf("must be an array, got %s", kindOf(v)), fix)
		return nil, false
	}
	return items, true
}

func (p *manifestParser) str(field string, v json.RawMessage, fix string) (string, bool) {
	var s string
	if kindOf(v) != "a string" || json.Unmarshal(v, &s) != nil {
		p.fail(field, fmt.Sprintf("must be a string, got %s", kindOf(v)), fix)
		return "", false
	}
	return s, true
}

// optStr reads an optional top-level string member.
func (p *manifestParser) optStr(obj *jsonObject, key, fix string) (string, bool) {
	return p.optStrAt(obj, "", key, fix)
}

// optStrAt reads an optional string member of the object at path base.
func (p *manifestParser) optStrAt(obj *jsonObject, base, key, fix string) (string, bool) {
	v, ok := obj.get(key)
	if !ok {
		return "", false
	}
	field := key
	if base != "" {
		field = base + "." + key
	}
	return p.str(field, v, fix)
}

func (p *manifestParser) stringArray(field string, v json.RawMessage, fix string) []string {
	items, ok := p.array(field, v, fix)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		if s, ok := p.str(fmt.Sprintf("%s[%d]", field, i), it, fix); ok {
			out = append(out, s)
		}
	}
	return out
}

// kindOf names the JSON kind of a valid JSON value, with its article, for
// messages such as "must be a string, got a number".
func kindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func abbreviate(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:37] + "..."
}

// Errors lists the errors joined in err (errors.Join), or err alone.
func Errors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
