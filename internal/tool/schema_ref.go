package tool

// References inside a tool schema: $ref, $dynamicRef and $recursiveRef
// resolve only to schemas in the same document (by JSON pointer, "$id" or
// "$anchor"), since a tool schema comes from an extension or MCP server and
// must be self-contained: nothing is ever fetched. Before compiling, scan
// records every schema's base URI and what a reference may name; resolve
// follows one reference; checkLoops refuses a document whose references
// would make validation recurse forever without reaching into the input
// (jsonschema-go, for one, overflows the stack on {"$ref":"#"}).

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Keywords whose values are schemas, by shape.
var (
	schemaKeywords = []string{"additionalProperties", "additionalItems", "items", "contains",
		"propertyNames", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

// scan records, before anything is compiled, each schema's base URI and
// the resources ($id) and anchors ($anchor) a $ref may name.
func (c *compiler) scan(v any, loc string, base *url.URL) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if id, ok := m["$id"].(string); ok {
		if strings.HasPrefix(id, "#") { // draft-07's plain-name fragment
			c.anchors[withoutFragment(base)+id] = loc
		} else if u, err := base.Parse(id); err == nil {
			base = u
			c.resources[withoutFragment(u)] = loc
		}
	}
	if loc == "#" {
		c.resources[withoutFragment(base)] = loc
	}
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := m[kw].(string); ok {
			c.anchors[withoutFragment(base)+"#"+a] = loc
		}
	}
	c.bases[loc] = base
	c.values[loc] = v
	for _, kw := range schemaKeywords {
		if sub, ok := m[kw]; ok {
			c.scan(sub, loc+"/"+escapeToken(kw), base)
		}
	}
	for _, kw := range schemaListKeywords {
		if list, ok := m[kw].([]any); ok {
			for i, sub := range list {
				c.scan(sub, loc+"/"+escapeToken(kw)+"/"+strconv.Itoa(i), base)
			}
		}
	}
	for _, kw := range schemaMapKeywords {
		if mm, ok := m[kw].(map[string]any); ok {
			for k, sub := range mm {
				c.scan(sub, loc+"/"+escapeToken(kw)+"/"+escapeToken(k), base)
			}
		}
	}
}

func withoutFragment(u *url.URL) string {
	v := *u
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

// resolve finds the schema a $ref at loc names, compiling it.
func (c *compiler) resolve(loc, kw, ref string) (*node, error) {
	base := c.bases[loc]
	if base == nil {
		base = c.bases["#"]
	}
	u, err := base.Parse(ref)
	if err != nil {
		return nil, schemaError(loc, kw, "cannot read %q as a URI reference: %v", ref, err)
	}
	doc := withoutFragment(u)
	resLoc, ok := c.resources[doc]
	if !ok {
		return nil, schemaError(loc, kw, "%q points outside the schema; a tool schema must be self-contained (put the referenced schema under \"$defs\" and refer to it as \"#/$defs/name\")", ref)
	}
	target, frag := resLoc, u.Fragment
	if frag != "" && !strings.HasPrefix(frag, "/") {
		if target, ok = c.anchors[doc+"#"+frag]; !ok {
			return nil, schemaError(loc, kw, "%q names no \"$anchor\" in the schema", ref)
		}
		frag = ""
	}
	v, ok := c.values[target]
	if !ok {
		return nil, schemaError(loc, kw, "%q points nowhere in the schema", ref)
	}
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch cur := v.(type) {
			case map[string]any:
				v, ok = cur[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				ok = err == nil && i >= 0 && i < len(cur) && strconv.Itoa(i) == tok
				if ok {
					v = cur[i]
				}
			default:
				ok = false
			}
			if !ok {
				return nil, schemaError(loc, kw, "%q points nowhere in the schema (no %q there); define it or fix the pointer", ref, tok)
			}
			target += "/" + escapeToken(tok)
		}
	}
	if _, seen := c.bases[target]; !seen {
		c.bases[target] = c.bases[resLoc]
	}
	return c.compile(target, v)
}

// checkLoops refuses schemas whose $refs (through allOf, anyOf, not, …)
// lead back to themselves without going into a property or an item:
// validating with one would never end.
func (c *compiler) checkLoops() error {
	const (
		unseen = iota
		active
		done
	)
	state := map[*node]int{}
	var visit func(n *node) *node
	visit = func(n *node) *node {
		switch state[n] {
		case active:
			return n
		case done:
			return nil
		}
		state[n] = active
		next := slices.Concat(n.refs, n.allOf, n.anyOf, n.oneOf, []*node{n.not, n.ifNode, n.thenNode, n.elseNode})
		for _, d := range n.dependentSchemas {
			next = append(next, d.n)
		}
		for _, s := range next {
			if s == nil {
				continue
			}
			if hit := visit(s); hit != nil {
				return hit
			}
		}
		state[n] = done
		return nil
	}
	for _, loc := range sortedKeys(c.nodes) {
		if hit := visit(c.nodes[loc]); hit != nil {
			return fmt.Errorf("at %s: this schema leads back to itself through \"$ref\" without going into a property or an item, so checking an input would never end; make the recursion go through \"properties\" or \"items\"", hit.loc)
		}
	}
	return nil
}
