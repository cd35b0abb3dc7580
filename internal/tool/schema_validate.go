package tool

// Validating a decoded input against compiled nodes (schema_compile.go).
// check walks the nodes and the value together. With a nil out it only
// answers valid or not, stopping at the first problem and formatting no
// message (anyOf, oneOf, not, if and contains ask that way); with out it
// lists every violation. A valid input allocates nothing here.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/plural"
)

// path is where in the input a value is: a linked list from the value up
// to the input, built on the stack while descending and turned into a JSON
// pointer only when a violation is reported.
type path struct {
	up  *path
	key string
	idx int // >= 0: an array index; -1: key names an object property
}

func (p *path) String() string {
	if p == nil {
		return ""
	}
	return string(p.appendTo(nil))
}

func (p *path) appendTo(b []byte) []byte {
	if p == nil {
		return b
	}
	b = append(p.up.appendTo(b), '/')
	if p.idx >= 0 {
		return strconv.AppendInt(b, int64(p.idx), 10)
	}
	return append(b, escapeToken(p.key)...)
}

func report(out *[]Violation, p *path, msg string) {
	*out = append(*out, Violation{Location: p.String(), Message: msg})
}

// kindOf returns the JSON Schema types v has: an integral number is both a
// number and an integer.
func kindOf(v any) typeMask {
	switch x := v.(type) {
	case nil:
		return typeNull
	case bool:
		return typeBoolean
	case string:
		return typeString
	case []any:
		return typeArray
	case map[string]any:
		return typeObject
	case json.Number, float64:
		if d, _, ok := numberOf(x); ok && d.integral() {
			return typeNumber | typeInteger
		}
		return typeNumber
	}
	return 0
}

// check reports whether v is valid against n, appending every violation
// to out when out is not nil.
func (n *node) check(v any, p *path, out *[]Violation) bool {
	if n.never {
		if out != nil {
			report(out, p, "not allowed here (the schema is false)")
		}
		return false
	}
	ok := true
	fail := func() bool { // notes a violation; true: stop now
		ok = false
		return out == nil
	}
	for _, r := range n.refs {
		if !r.check(v, p, out) && fail() {
			return false
		}
	}
	if n.types != 0 && kindOf(v)&n.types == 0 {
		if fail() {
			return false
		}
		report(out, p, fmt.Sprintf("expected type %s, got %s", strings.Join(n.typeNames, " or "), jsonType(v)))
	}
	if n.hasConst && !equalJSON(v, n.constVal) {
		if fail() {
			return false
		}
		report(out, p, fmt.Sprintf("must be %s; got %s", display(n.constVal), display(v)))
	}
	if n.hasEnum && !slices.ContainsFunc(n.enum, func(e any) bool { return equalJSON(v, e) }) {
		if fail() {
			return false
		}
		if len(n.enum) == 0 {
			report(out, p, "no value is allowed (the schema's enum is empty)")
		} else {
			want := make([]string, len(n.enum))
			for i, e := range n.enum {
				want[i] = display(e)
			}
			report(out, p, fmt.Sprintf("must be one of %s; got %s", strings.Join(want, ", "), display(v)))
		}
	}

	var valid bool
	switch x := v.(type) {
	case map[string]any:
		valid = n.checkObject(x, p, out)
	case []any:
		valid = n.checkArray(x, p, out)
	case string:
		valid = n.checkString(x, p, out)
	case json.Number, float64:
		valid = n.checkNumber(v, p, out)
	default:
		valid = true
	}
	if !valid && fail() {
		return false
	}

	for _, s := range n.allOf {
		if !s.check(v, p, out) && fail() {
			return false
		}
	}
	if len(n.anyOf) > 0 && !slices.ContainsFunc(n.anyOf, func(s *node) bool { return s.check(v, p, nil) }) {
		if fail() {
			return false
		}
		report(out, p, "matches none of the allowed alternatives: "+alternatives(n.anyOf, v, p))
	}
	if len(n.oneOf) > 0 {
		var matched []int
		for i, s := range n.oneOf {
			if s.check(v, p, nil) {
				matched = append(matched, i+1)
			}
		}
		switch {
		case len(matched) == 1:
		case fail():
			return false
		case len(matched) == 0:
			report(out, p, "matches none of the allowed alternatives: "+alternatives(n.oneOf, v, p))
		default:
			nums := make([]string, len(matched))
			for i, m := range matched {
				nums[i] = strconv.Itoa(m)
			}
			report(out, p, fmt.Sprintf("matches alternatives %s of a oneOf; it must match exactly one", strings.Join(nums, " and ")))
		}
	}
	if n.not != nil && n.not.check(v, p, nil) {
		if fail() {
			return false
		}
		report(out, p, `must not match the schema under "not"`)
	}
	if n.ifNode != nil {
		then := n.thenNode
		if !n.ifNode.check(v, p, nil) {
			then = n.elseNode
		}
		if then != nil && !then.check(v, p, out) && fail() {
			return false
		}
	}
	return ok
}

// alternatives describes why v matches none of alts, for the model:
// "[1: expected type string, got number] [2: minimum: got 1, want 3]".
func alternatives(alts []*node, v any, p *path) string {
	here := p.String()
	parts := make([]string, len(alts))
	for i, s := range alts {
		var sub []Violation
		s.check(v, p, &sub)
		sortViolations(sub)
		texts := make([]string, len(sub))
		for j, sv := range sub {
			if sv.Location == here { // the alternative's own location is implied
				sv.Location = ""
			}
			texts[j] = sv.String()
		}
		parts[i] = fmt.Sprintf("[%d: %s]", i+1, strings.Join(texts, ", "))
	}
	return strings.Join(parts, " ")
}

func (n *node) checkObject(obj map[string]any, p *path, out *[]Violation) bool {
	ok := true
	for _, r := range n.required {
		if _, has := obj[r]; !has {
			if out == nil {
				return false
			}
			ok = false
			report(out, &path{up: p, key: r, idx: -1}, "missing required property")
		}
	}
	if n.minProps >= 0 && len(obj) < n.minProps {
		if out == nil {
			return false
		}
		ok = false
		report(out, p, fmt.Sprintf("minProperties: got %s, want at least %d", plural.Count(len(obj), "property"), n.minProps))
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		if out == nil {
			return false
		}
		ok = false
		report(out, p, fmt.Sprintf("maxProperties: got %s, want at most %d", plural.Count(len(obj), "property"), n.maxProps))
	}
	for _, d := range n.dependentRequired {
		if _, has := obj[d.prop]; !has {
			continue
		}
		for _, r := range d.required {
			if _, has := obj[r]; !has {
				if out == nil {
					return false
				}
				ok = false
				report(out, &path{up: p, key: r, idx: -1}, fmt.Sprintf("missing required property (required when %q is present)", d.prop))
			}
		}
	}
	for _, d := range n.dependentSchemas {
		if _, has := obj[d.prop]; has && !d.n.check(obj, p, out) {
			if out == nil {
				return false
			}
			ok = false
		}
	}
	if n.properties == nil && n.patternProperties == nil && n.additional == nil && n.propertyNames == nil {
		return ok
	}
	var at path // declared outside the loop, so that it stays on the stack
	for k, val := range obj {
		at = path{up: p, key: k, idx: -1}
		matched := false
		if s, has := n.properties[k]; has {
			matched = true
			if !s.check(val, &at, out) {
				if out == nil {
					return false
				}
				ok = false
			}
		}
		for _, pp := range n.patternProperties {
			if pp.re.MatchString(k) {
				matched = true
				if !pp.n.check(val, &at, out) {
					if out == nil {
						return false
					}
					ok = false
				}
			}
		}
		if !matched && n.additional != nil {
			if n.additional.never {
				if out == nil {
					return false
				}
				ok = false
				report(out, &at, "unknown property (the schema does not allow it)")
			} else if !n.additional.check(val, &at, out) {
				if out == nil {
					return false
				}
				ok = false
			}
		}
		if n.propertyNames != nil && !n.propertyNames.check(k, &at, nil) {
			if out == nil {
				return false
			}
			ok = false
			var sub []Violation
			n.propertyNames.check(k, &at, &sub)
			for _, sv := range sub {
				*out = append(*out, Violation{Location: sv.Location, Message: "invalid property name: " + sv.Message})
			}
		}
	}
	return ok
}

func (n *node) checkArray(arr []any, p *path, out *[]Violation) bool {
	ok := true
	if n.minItems >= 0 && len(arr) < n.minItems {
		if out == nil {
			return false
		}
		ok = false
		report(out, p, fmt.Sprintf("minItems: got %s, want at least %d", plural.Count(len(arr), "item"), n.minItems))
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		if out == nil {
			return false
		}
		ok = false
		report(out, p, fmt.Sprintf("maxItems: got %s, want at most %d", plural.Count(len(arr), "item"), n.maxItems))
	}
	var at path // declared outside the loop, so that it stays on the stack
	for i, val := range arr {
		s := n.items
		if i < len(n.prefixItems) {
			s = n.prefixItems[i]
		} else if s == nil {
			break
		}
		at = path{up: p, idx: i}
		if s.never && i >= len(n.prefixItems) {
			if out == nil {
				return false
			}
			ok = false
			report(out, &at, fmt.Sprintf("extra item (the schema allows at most %d items here)", len(n.prefixItems)))
		} else if !s.check(val, &at, out) {
			if out == nil {
				return false
			}
			ok = false
		}
	}
	if n.contains != nil {
		count := 0
		for i, val := range arr {
			at = path{up: p, idx: i}
			if n.contains.check(val, &at, nil) {
				count++
			}
		}
		var msg string
		switch {
		case count < n.minContains && n.minContains == 1:
			msg = `no item matches the schema under "contains"`
		case count < n.minContains:
			msg = fmt.Sprintf(`minContains: %s the schema under "contains", want at least %d`, plural.Count(count, "item")+plural.Pick(count, " matches", " match"), n.minContains)
		case n.maxContains >= 0 && count > n.maxContains:
			msg = fmt.Sprintf(`maxContains: %s the schema under "contains", want at most %d`, plural.Count(count, "item")+plural.Pick(count, " matches", " match"), n.maxContains)
		}
		if msg != "" {
			if out == nil {
				return false
			}
			ok = false
			report(out, p, msg)
		}
	}
	if n.uniqueItems {
		if i, j := duplicate(arr); i >= 0 {
			if out == nil {
				return false
			}
			ok = false
			report(out, p, fmt.Sprintf("uniqueItems: items %d and %d are equal", i, j))
		}
	}
	return ok
}

// duplicate returns the indices of the first two equal items, or -1, -1.
func duplicate(arr []any) (int, int) {
	if len(arr) <= 16 {
		for j := range arr {
			for i := range j {
				if equalJSON(arr[i], arr[j]) {
					return i, j
				}
			}
		}
		return -1, -1
	}
	seen := make(map[string]int, len(arr))
	var b strings.Builder
	for j, v := range arr {
		b.Reset()
		canonical(&b, v)
		if i, dup := seen[b.String()]; dup {
			return i, j
		}
		seen[b.String()] = j
	}
	return -1, -1
}

func (n *node) checkString(s string, p *path, out *[]Violation) bool {
	ok := true
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLength >= 0 && l < n.minLength {
			if out == nil {
				return false
			}
			ok = false
			report(out, p, fmt.Sprintf("minLength: got %s, want at least %d", plural.Count(l, "character"), n.minLength))
		}
		if n.maxLength >= 0 && l > n.maxLength {
			if out == nil {
				return false
			}
			ok = false
			report(out, p, fmt.Sprintf("maxLength: got %s, want at most %d", plural.Count(l, "character"), n.maxLength))
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		if out == nil {
			return false
		}
		ok = false
		report(out, p, fmt.Sprintf("must match the pattern %s; got %s", display(n.pattern.String()), display(s)))
	}
	return ok
}

func (n *node) checkNumber(v any, p *path, out *[]Violation) bool {
	if n.minimum == nil && n.maximum == nil && n.exclusiveMin == nil && n.exclusiveMax == nil && n.multipleOf == nil {
		return true
	}
	d, text, valid := numberOf(v)
	if !valid {
		return true // not a number the decoder could have produced
	}
	ok := true
	for _, c := range []struct {
		lim  *number
		bad  func(int) bool
		form string
	}{
		{n.minimum, func(c int) bool { return c < 0 }, "minimum: got %s, want %s"},
		{n.maximum, func(c int) bool { return c > 0 }, "maximum: got %s, want %s"},
		{n.exclusiveMin, func(c int) bool { return c <= 0 }, "exclusiveMinimum: got %s, want > %s"},
		{n.exclusiveMax, func(c int) bool { return c >= 0 }, "exclusiveMaximum: got %s, want < %s"},
	} {
		if c.lim != nil && c.bad(cmpDecimal(d, c.lim.d)) {
			if out == nil {
				return false
			}
			ok = false
			report(out, p, fmt.Sprintf(c.form, text, c.lim.text))
		}
	}
	if n.multipleOf != nil && !multipleOf(d, n.multipleOf.d) {
		if out == nil {
			return false
		}
		ok = false
		report(out, p, fmt.Sprintf("multipleOf: got %s, want a multiple of %s", text, n.multipleOf.text))
	}
	return ok
}

// equalJSON compares decoded JSON values, numbers by value (1 == 1.0).
func equalJSON(x, y any) bool {
	switch a := x.(type) {
	case nil:
		return y == nil
	case bool:
		b, ok := y.(bool)
		return ok && a == b
	case string:
		b, ok := y.(string)
		return ok && a == b
	case json.Number, float64:
		da, _, ok := numberOf(a)
		db, _, ok2 := numberOf(y)
		return ok && ok2 && cmpDecimal(da, db) == 0
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, has := b[k]
			if !has || !equalJSON(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// canonical writes v so that equal values (by equalJSON) write the same.
func canonical(b *strings.Builder, v any) {
	switch x := v.(type) {
	case json.Number, float64:
		d, text, ok := numberOf(x)
		if !ok {
			b.WriteString("n?" + text)
			return
		}
		if d.neg {
			b.WriteByte('-')
		}
		b.WriteString("n" + d.a + d.b + "e" + strconv.FormatInt(d.point, 10))
	case []any:
		b.WriteByte('[')
		for _, e := range x {
			canonical(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for _, k := range sortedKeys(x) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonical(b, x[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		enc, _ := json.Marshal(x)
		b.Write(enc)
	}
}
