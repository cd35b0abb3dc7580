package tool

// Compiling a tool's JSON Schema into a graph of nodes, once per schema;
// validating (schema_validate.go) then walks the nodes and the input
// together, without maps of keywords or reflection. References ($ref and
// its kin) are resolved in schema_ref.go.
//
// The keywords of draft 2020-12 that constrain an input are compiled, and
// their draft-07 spellings (items as an array, additionalItems,
// dependencies, definitions, a boolean exclusiveMinimum/Maximum from
// draft-04). Annotations (title, description, default, examples, format,
// readOnly, …) and keywords this validator does not know are ignored:
// schemas come from extensions and MCP servers, and a keyword we do not
// check must never stop a tool. A schema is refused only when a keyword it
// uses cannot mean anything: a type that does not exist, a $ref that points
// nowhere or outside the schema, a regexp RE2 cannot run, a loop of $refs
// that would never reach into the input.

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// typeMask is a set of JSON Schema types.
type typeMask uint8

const (
	typeNull typeMask = 1 << iota
	typeBoolean
	typeObject
	typeArray
	typeNumber
	typeInteger // a number that is whole
	typeString
)

func typeByName(name string) (typeMask, bool) {
	switch name {
	case "null":
		return typeNull, true
	case "boolean":
		return typeBoolean, true
	case "object":
		return typeObject, true
	case "array":
		return typeArray, true
	case "number":
		return typeNumber, true
	case "integer":
		return typeInteger, true
	case "string":
		return typeString, true
	}
	return 0, false
}

// node is one compiled schema. Zero values mean "no constraint"; counts
// that may be zero use -1 for "none".
type node struct {
	loc   string // where in the schema document, as a URI fragment: "#/properties/a"
	never bool   // the schema false: nothing is valid

	refs []*node // $ref (and $dynamicRef, $recursiveRef) targets, applied to the same value

	types     typeMask
	typeNames []string // as the schema lists them, for messages

	enum     []any
	hasEnum  bool
	constVal any
	hasConst bool

	minimum, maximum, exclusiveMin, exclusiveMax, multipleOf *number

	minLength, maxLength int
	pattern              *regexp.Regexp

	prefixItems        []*node
	items              *node // the items after prefixItems; nil: any
	minItems, maxItems int
	uniqueItems        bool
	contains           *node
	minContains        int
	maxContains        int

	properties        map[string]*node
	patternProperties []patternNode
	additional        *node // nil: any
	propertyNames     *node
	required          []string
	minProps          int
	maxProps          int
	dependentRequired []dependency
	dependentSchemas  []dependentSchema

	allOf, anyOf, oneOf []*node
	not                 *node
	ifNode, thenNode    *node
	elseNode            *node
}

type patternNode struct {
	re *regexp.Regexp
	n  *node
}

type dependency struct {
	prop     string
	required []string
}

type dependentSchema struct {
	prop string
	n    *node
}

// compiler turns one schema document into nodes.
type compiler struct {
	legacy bool // draft-07 or older: keywords beside $ref are ignored

	nodes     map[string]*node    // compiled, by location
	bases     map[string]*url.URL // base URI of each schema the scan saw, by location
	values    map[string]any      // each schema the scan saw, by location
	resources map[string]string   // absolute URI (no fragment) -> location of its schema
	anchors   map[string]string   // absolute URI#anchor -> location
}

// compileDocument compiles doc, a schema decoded with UseNumber.
func compileDocument(doc any) (*node, error) {
	c := &compiler{
		nodes:     map[string]*node{},
		bases:     map[string]*url.URL{},
		values:    map[string]any{},
		resources: map[string]string{},
		anchors:   map[string]string{},
	}
	if m, ok := doc.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			for _, d := range []string{"draft-03", "draft-04", "draft-06", "draft-07"} {
				if strings.Contains(s, d) {
					c.legacy = true
				}
			}
		}
	}
	root, _ := url.Parse(schemaURL)
	c.scan(doc, "#", root)
	n, err := c.compile("#", doc)
	if err != nil {
		return nil, err
	}
	if err := c.checkLoops(); err != nil {
		return nil, err
	}
	return n, nil
}

// schemaError is a problem with a schema keyword, located by a JSON
// pointer into the schema.
func schemaError(loc, kw, format string, args ...any) error {
	return fmt.Errorf("at %s/%s: %s", loc, escapeToken(kw), fmt.Sprintf(format, args...))
}

// compile compiles the schema v found at loc.
func (c *compiler) compile(loc string, v any) (*node, error) {
	if n, ok := c.nodes[loc]; ok {
		return n, nil
	}
	n := &node{loc: loc, minLength: -1, maxLength: -1, minItems: -1, maxItems: -1,
		minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
	c.nodes[loc] = n
	switch s := v.(type) {
	case bool:
		n.never = !s
		return n, nil
	case map[string]any:
		return n, c.keywords(n, s)
	}
	return nil, fmt.Errorf("at %s: a schema must be an object or a boolean, got %s", loc, jsonType(v))
}

// sub compiles the schema under keyword kw (and path elements more) of n.
func (c *compiler) sub(n *node, v any, path ...string) (*node, error) {
	loc := n.loc
	for _, p := range path {
		loc += "/" + escapeToken(p)
	}
	return c.compile(loc, v)
}

func (c *compiler) keywords(n *node, m map[string]any) error {
	for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		ref, ok := m[kw]
		if !ok {
			continue
		}
		s, ok := ref.(string)
		if !ok {
			return schemaError(n.loc, kw, "must be a string, got %s", jsonType(ref))
		}
		t, err := c.resolve(n.loc, kw, s)
		if err != nil {
			return err
		}
		n.refs = append(n.refs, t)
		if c.legacy && kw == "$ref" {
			return nil // before 2019-09, $ref replaces its siblings
		}
	}

	if err := c.typeKeyword(n, m); err != nil {
		return err
	}
	if v, ok := m["enum"]; ok {
		list, ok := v.([]any)
		if !ok {
			return schemaError(n.loc, "enum", "must be an array of the allowed values, got %s", jsonType(v))
		}
		n.enum, n.hasEnum = list, true
	}
	if v, ok := m["const"]; ok {
		n.constVal, n.hasConst = v, true
	}

	// numbers
	var err error
	for _, k := range []struct {
		kw string
		to **number
	}{{"minimum", &n.minimum}, {"maximum", &n.maximum}, {"multipleOf", &n.multipleOf}} {
		if *k.to, err = numberKeyword(n.loc, k.kw, m); err != nil {
			return err
		}
	}
	if n.multipleOf != nil && n.multipleOf.d.sign() <= 0 {
		return schemaError(n.loc, "multipleOf", "must be greater than 0, got %s", n.multipleOf.text)
	}
	for _, k := range []struct {
		kw     string
		to     **number
		inclus **number
	}{{"exclusiveMinimum", &n.exclusiveMin, &n.minimum}, {"exclusiveMaximum", &n.exclusiveMax, &n.maximum}} {
		if b, ok := m[k.kw].(bool); ok { // draft-04: a flag on minimum/maximum
			if b {
				*k.to, *k.inclus = *k.inclus, nil
			}
			continue
		}
		if *k.to, err = numberKeyword(n.loc, k.kw, m); err != nil {
			return err
		}
	}

	// strings
	for _, k := range []struct {
		kw string
		to *int
	}{{"minLength", &n.minLength}, {"maxLength", &n.maxLength}, {"minItems", &n.minItems}, {"maxItems", &n.maxItems},
		{"minContains", &n.minContains}, {"maxContains", &n.maxContains}, {"minProperties", &n.minProps}, {"maxProperties", &n.maxProps}} {
		if *k.to, err = countKeyword(n.loc, k.kw, m); err != nil {
			return err
		}
	}
	if v, ok := m["pattern"]; ok {
		if n.pattern, err = compilePattern(n.loc, "pattern", v); err != nil {
			return err
		}
	}

	if err := c.arrayKeywords(n, m); err != nil {
		return err
	}
	if err := c.objectKeywords(n, m); err != nil {
		return err
	}

	// combinations
	for _, k := range []struct {
		kw string
		to *[]*node
	}{{"allOf", &n.allOf}, {"anyOf", &n.anyOf}, {"oneOf", &n.oneOf}} {
		v, ok := m[k.kw]
		if !ok {
			continue
		}
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return schemaError(n.loc, k.kw, "must be a non-empty array of schemas, got %s", describe(v))
		}
		for i, s := range list {
			sn, err := c.sub(n, s, k.kw, strconv.Itoa(i))
			if err != nil {
				return err
			}
			*k.to = append(*k.to, sn)
		}
	}
	for _, k := range []struct {
		kw string
		to **node
	}{{"not", &n.not}, {"if", &n.ifNode}, {"then", &n.thenNode}, {"else", &n.elseNode}} {
		if v, ok := m[k.kw]; ok {
			if *k.to, err = c.sub(n, v, k.kw); err != nil {
				return err
			}
		}
	}
	if n.ifNode == nil { // then and else mean nothing without if
		n.thenNode, n.elseNode = nil, nil
	}
	return nil
}

func (c *compiler) typeKeyword(n *node, m map[string]any) error {
	v, ok := m["type"]
	if !ok {
		return nil
	}
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return schemaError(n.loc, "type", "must be a type name or an array of them, got %s in the array", jsonType(e))
			}
			names = append(names, s)
		}
		if len(names) == 0 {
			return schemaError(n.loc, "type", "lists no type; name at least one, or leave \"type\" out")
		}
	default:
		return schemaError(n.loc, "type", "must be a type name or an array of them, got %s", jsonType(v))
	}
	for _, name := range names {
		t, ok := typeByName(name)
		if !ok {
			return schemaError(n.loc, "type", "unknown type %q (use array, boolean, integer, null, number, object or string)", name)
		}
		n.types |= t
	}
	n.typeNames = names
	return nil
}

func (c *compiler) arrayKeywords(n *node, m map[string]any) error {
	var err error
	switch items := m["items"].(type) {
	case []any: // draft-07: items as an array is prefixItems, additionalItems the rest
		for i, s := range items {
			sn, err := c.sub(n, s, "items", strconv.Itoa(i))
			if err != nil {
				return err
			}
			n.prefixItems = append(n.prefixItems, sn)
		}
		if v, ok := m["additionalItems"]; ok {
			if n.items, err = c.sub(n, v, "additionalItems"); err != nil {
				return err
			}
		}
	case nil:
		if _, ok := m["items"]; ok {
			return schemaError(n.loc, "items", "must be a schema, got null")
		}
	default:
		if n.items, err = c.sub(n, items, "items"); err != nil {
			return err
		}
	}
	if v, ok := m["prefixItems"]; ok {
		if _, legacy := m["items"].([]any); !legacy {
			list, ok := v.([]any)
			if !ok {
				return schemaError(n.loc, "prefixItems", "must be an array of schemas, got %s", jsonType(v))
			}
			for i, s := range list {
				sn, err := c.sub(n, s, "prefixItems", strconv.Itoa(i))
				if err != nil {
					return err
				}
				n.prefixItems = append(n.prefixItems, sn)
			}
		}
	}
	if v, ok := m["uniqueItems"]; ok {
		b, ok := v.(bool)
		if !ok {
			return schemaError(n.loc, "uniqueItems", "must be true or false, got %s", jsonType(v))
		}
		n.uniqueItems = b
	}
	if v, ok := m["contains"]; ok {
		if n.contains, err = c.sub(n, v, "contains"); err != nil {
			return err
		}
		if n.minContains < 0 {
			n.minContains = 1
		}
	} else {
		n.minContains, n.maxContains = -1, -1
	}
	return nil
}

func (c *compiler) objectKeywords(n *node, m map[string]any) error {
	var err error
	if v, ok := m["properties"]; ok {
		props, ok := v.(map[string]any)
		if !ok {
			return schemaError(n.loc, "properties", "must be an object of schemas, got %s", jsonType(v))
		}
		n.properties = make(map[string]*node, len(props))
		for name, s := range props {
			if n.properties[name], err = c.sub(n, s, "properties", name); err != nil {
				return err
			}
		}
	}
	if v, ok := m["patternProperties"]; ok {
		props, ok := v.(map[string]any)
		if !ok {
			return schemaError(n.loc, "patternProperties", "must be an object of schemas, got %s", jsonType(v))
		}
		for _, expr := range sortedKeys(props) {
			re, err := compilePattern(n.loc+"/patternProperties", expr, expr)
			if err != nil {
				return err
			}
			sn, err := c.sub(n, props[expr], "patternProperties", expr)
			if err != nil {
				return err
			}
			n.patternProperties = append(n.patternProperties, patternNode{re, sn})
		}
	}
	if v, ok := m["additionalProperties"]; ok {
		if n.additional, err = c.sub(n, v, "additionalProperties"); err != nil {
			return err
		}
	}
	if v, ok := m["propertyNames"]; ok {
		if n.propertyNames, err = c.sub(n, v, "propertyNames"); err != nil {
			return err
		}
	}
	if v, ok := m["required"]; ok {
		if n.required, err = stringList(n.loc, "required", v); err != nil {
			return err
		}
	}
	if v, ok := m["dependentRequired"]; ok {
		deps, ok := v.(map[string]any)
		if !ok {
			return schemaError(n.loc, "dependentRequired", "must be an object of property-name arrays, got %s", jsonType(v))
		}
		for _, p := range sortedKeys(deps) {
			req, err := stringList(n.loc+"/dependentRequired", p, deps[p])
			if err != nil {
				return err
			}
			n.dependentRequired = append(n.dependentRequired, dependency{p, req})
		}
	}
	for _, kw := range []string{"dependentSchemas", "dependencies"} {
		v, ok := m[kw]
		if !ok {
			continue
		}
		deps, ok := v.(map[string]any)
		if !ok {
			return schemaError(n.loc, kw, "must be an object, got %s", jsonType(v))
		}
		for _, p := range sortedKeys(deps) {
			if list, ok := deps[p].([]any); ok && kw == "dependencies" { // draft-07: required names
				req, err := stringList(n.loc+"/dependencies", p, list)
				if err != nil {
					return err
				}
				n.dependentRequired = append(n.dependentRequired, dependency{p, req})
				continue
			}
			sn, err := c.sub(n, deps[p], kw, p)
			if err != nil {
				return err
			}
			n.dependentSchemas = append(n.dependentSchemas, dependentSchema{p, sn})
		}
	}
	return nil
}

func numberKeyword(loc, kw string, m map[string]any) (*number, error) {
	v, ok := m[kw]
	if !ok {
		return nil, nil
	}
	d, text, ok := numberOf(v)
	if !ok {
		return nil, schemaError(loc, kw, "must be a number, got %s", jsonType(v))
	}
	return &number{d, text}, nil
}

// countKeyword reads a non-negative whole number; -1 when kw is absent.
func countKeyword(loc, kw string, m map[string]any) (int, error) {
	v, ok := m[kw]
	if !ok {
		return -1, nil
	}
	d, text, ok := numberOf(v)
	if !ok || !d.integral() || d.neg {
		return 0, schemaError(loc, kw, "must be a whole number of at least 0, got %s", describe(v))
	}
	if d.zero() {
		return 0, nil
	}
	if d.point > 18 {
		return math.MaxInt, nil
	}
	n, err := strconv.ParseInt(d.a+d.b+strings.Repeat("0", int(d.point)-d.ndigits()), 10, 64)
	if err != nil || n > math.MaxInt {
		return 0, schemaError(loc, kw, "cannot read %s as a count", text)
	}
	return int(n), nil
}

func compilePattern(loc, kw string, v any) (*regexp.Regexp, error) {
	expr, ok := v.(string)
	if !ok {
		return nil, schemaError(loc, kw, "must be a regular expression (a string), got %s", jsonType(v))
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, schemaError(loc, kw, "Go's regexp (RE2) cannot compile %q: %v; rewrite it without lookaround or backreferences", expr, err)
	}
	return re, nil
}

func stringList(loc, kw string, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, schemaError(loc, kw, "must be an array of property names, got %s", jsonType(v))
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, schemaError(loc, kw, "must be an array of property names, got %s in it", jsonType(e))
		}
		out = append(out, s)
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// describe names a value's type, and the value itself when it is short.
func describe(v any) string {
	switch v.(type) {
	case []any, map[string]any:
		return jsonType(v)
	}
	return jsonType(v) + " " + display(v)
}
