package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkJSON compiles schema and checks input (any JSON value, not only an
// object) against it: nil when valid.
func checkJSON(t testing.TB, schema, input string) []Violation {
	t.Helper()
	doc, err := decodeJSON([]byte(schema))
	if err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	root, err := compileDocument(doc)
	if err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	v, err := decodeJSON([]byte(input))
	if err != nil {
		t.Fatalf("input %s: %v", input, err)
	}
	return root.violations(v)
}

type keywordCase struct {
	name   string
	schema string
	input  string
	want   []Violation // nil: valid
}

// at builds the expected violations: at("/a", "msg", "/b", "msg2").
func at(locMsg ...string) []Violation {
	var out []Violation
	for i := 0; i+1 < len(locMsg); i += 2 {
		out = append(out, Violation{Location: locMsg[i], Message: locMsg[i+1]})
	}
	return out
}

func runKeywordCases(t *testing.T, cases []keywordCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := checkJSON(t, tc.schema, tc.input)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("schema %s\ninput  %s\nviolations (-want +got):\n%s", tc.schema, tc.input, d)
			}
		})
	}
}

func TestKeywordsTypeAndValues(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"type string ok", `{"type":"string"}`, `"a"`, nil},
		{"type string refused", `{"type":"string"}`, `1`, at("", "expected type string, got number")},
		{"type null ok", `{"type":"null"}`, `null`, nil},
		{"type null refused", `{"type":"null"}`, `false`, at("", "expected type null, got boolean")},
		{"type boolean", `{"type":"boolean"}`, `true`, nil},
		{"type boolean refused", `{"type":"boolean"}`, `"true"`, at("", "expected type boolean, got string")},
		{"type object", `{"type":"object"}`, `{}`, nil},
		{"type object refused", `{"type":"object"}`, `[]`, at("", "expected type object, got array")},
		{"type array refused", `{"type":"array"}`, `{}`, at("", "expected type array, got object")},
		{"type number takes integers", `{"type":"number"}`, `3`, nil},
		{"type number refused", `{"type":"number"}`, `"3"`, at("", "expected type number, got string")},
		{"integer", `{"type":"integer"}`, `3`, nil},
		{"integer 2.0", `{"type":"integer"}`, `2.0`, nil},
		{"integer 1e2", `{"type":"integer"}`, `1e2`, nil},
		{"integer 1.5e1", `{"type":"integer"}`, `1.5e1`, nil},
		{"integer -0", `{"type":"integer"}`, `-0.0`, nil},
		{"integer huge", `{"type":"integer"}`, `123456789012345678901234567890`, nil},
		{"integer 1.5 refused", `{"type":"integer"}`, `1.5`, at("", "expected type integer, got number")},
		{"integer 1e-2 refused", `{"type":"integer"}`, `1e-2`, at("", "expected type integer, got number")},
		{"integer almost whole refused", `{"type":"integer"}`, `1.0000000000000000000001`, at("", "expected type integer, got number")},
		{"type list ok", `{"type":["string","null"]}`, `null`, nil},
		{"type list refused", `{"type":["string","null"]}`, `1`, at("", "expected type string or null, got number")},

		{"enum ok", `{"enum":["a",1,null,{"k":[1]}]}`, `{"k":[1.0]}`, nil},
		{"enum number by value", `{"enum":[1,2]}`, `2.00`, nil},
		{"enum refused", `{"enum":["a","b"]}`, `"c"`, at("", `must be one of "a", "b"; got "c"`)},
		{"enum type matters", `{"enum":[1]}`, `"1"`, at("", `must be one of 1; got "1"`)},
		{"enum empty refuses all", `{"enum":[]}`, `1`, at("", "no value is allowed (the schema's enum is empty)")},
		{"const ok", `{"const":1}`, `1.0`, nil},
		{"const 1e0", `{"const":10}`, `1e1`, nil},
		{"const refused", `{"const":1}`, `2`, at("", "must be 1; got 2")},
		{"const null", `{"const":null}`, `null`, nil},
		{"const null refused", `{"const":null}`, `0`, at("", "must be null; got 0")},
		{"const false refused", `{"const":false}`, `null`, at("", "must be false; got null")},
		{"const object", `{"const":{"a":[1,"x"]}}`, `{"a":[1,"x"]}`, nil},
		{"const object refused", `{"const":{"a":[1,"x"]}}`, `{"a":[1,"x"],"b":1}`, at("", `must be {"a":[1,"x"]}; got {"a":[1,"x"],"b":1}`)},
		{"const array order", `{"const":[1,2]}`, `[2,1]`, at("", "must be [1,2]; got [2,1]")},
		{"long values shortened", `{"const":"` + strings.Repeat("x", 100) + `"}`, `"y"`, at("", `must be "`+strings.Repeat("x", 76)+`…; got "y"`)},
	})
}

func TestKeywordsNumbers(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"minimum equal", `{"minimum":0}`, `0`, nil},
		{"minimum refused", `{"minimum":0}`, `-1`, at("", "minimum: got -1, want 0")},
		{"minimum tiny negative refused", `{"minimum":0}`, `-1e-400`, at("", "minimum: got -1e-400, want 0")},
		{"minimum decimal exact", `{"minimum":0.1}`, `0.1`, nil},
		{"minimum decimal refused", `{"minimum":0.3}`, `0.29999999999999999999`, at("", "minimum: got 0.29999999999999999999, want 0.3")},
		{"minimum ignores strings", `{"minimum":5}`, `"1"`, nil},
		{"maximum ok", `{"maximum":10}`, `1e1`, nil},
		{"maximum refused", `{"maximum":10}`, `10.5`, at("", "maximum: got 10.5, want 10")},
		{"maximum huge exponent", `{"maximum":10}`, `1e999999999`, at("", "maximum: got 1e999999999, want 10")},
		{"exclusiveMinimum ok", `{"exclusiveMinimum":0}`, `0.0001`, nil},
		{"exclusiveMinimum refused", `{"exclusiveMinimum":0}`, `0`, at("", "exclusiveMinimum: got 0, want > 0")},
		{"exclusiveMaximum ok", `{"exclusiveMaximum":1}`, `0.999`, nil},
		{"exclusiveMaximum refused", `{"exclusiveMaximum":1}`, `1.0`, at("", "exclusiveMaximum: got 1.0, want < 1")},
		{"draft-04 exclusiveMinimum true", `{"minimum":0,"exclusiveMinimum":true}`, `0`, at("", "exclusiveMinimum: got 0, want > 0")},
		{"draft-04 exclusiveMinimum false", `{"minimum":0,"exclusiveMinimum":false}`, `0`, nil},
		{"draft-04 exclusiveMaximum true", `{"maximum":5,"exclusiveMaximum":true}`, `5`, at("", "exclusiveMaximum: got 5, want < 5")},
		{"draft-04 exclusiveMaximum true below", `{"maximum":5,"exclusiveMaximum":true}`, `4.9`, nil},
		{"draft-04 flag without minimum", `{"exclusiveMinimum":true}`, `-3`, nil},
		{"multipleOf ok", `{"multipleOf":3}`, `9`, nil},
		{"multipleOf refused", `{"multipleOf":3}`, `10`, at("", "multipleOf: got 10, want a multiple of 3")},
		{"multipleOf decimal", `{"multipleOf":0.1}`, `0.3`, nil},
		{"multipleOf decimal refused", `{"multipleOf":0.1}`, `0.35`, at("", "multipleOf: got 0.35, want a multiple of 0.1")},
		{"multipleOf 0.01 money", `{"multipleOf":0.01}`, `19.99`, nil},
		{"multipleOf zero input", `{"multipleOf":7}`, `0`, nil},
		{"multipleOf huge exponent", `{"multipleOf":3}`, `1e300`, at("", "multipleOf: got 1e300, want a multiple of 3")},
		{"multipleOf huge exponent ok", `{"multipleOf":2}`, `1e300`, nil},
		{"multipleOf tiny", `{"multipleOf":2}`, `1e-300`, at("", "multipleOf: got 1e-300, want a multiple of 2")},
		{"several bounds", `{"minimum":1,"multipleOf":2}`, `-1`, at("", "minimum: got -1, want 1", "", "multipleOf: got -1, want a multiple of 2")},
	})
}

func TestKeywordsStrings(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"minLength ok", `{"minLength":2}`, `"ab"`, nil},
		{"minLength refused", `{"minLength":2}`, `"a"`, at("", "minLength: got 1 character, want at least 2")},
		{"minLength counts runes", `{"minLength":2,"maxLength":2}`, `"é😀"`, nil},
		{"maxLength refused", `{"maxLength":2}`, `"日本語"`, at("", "maxLength: got 3 characters, want at most 2")},
		{"maxLength 0", `{"maxLength":0}`, `""`, nil},
		{"lengths ignore numbers", `{"maxLength":1}`, `12345`, nil},
		{"pattern ok", `{"pattern":"^[a-z]+$"}`, `"abc"`, nil},
		{"pattern not anchored", `{"pattern":"b"}`, `"abc"`, nil},
		{"pattern refused", `{"pattern":"^[a-z]+$"}`, `"ABC"`, at("", `must match the pattern "^[a-z]+$"; got "ABC"`)},
		{"pattern ignores non-strings", `{"pattern":"^a$"}`, `1`, nil},
		{"format is an annotation", `{"format":"email","title":"t","description":"d","default":"x","examples":["y"],"$comment":"c","readOnly":true}`, `"not an email"`, nil},
		{"unknown keywords ignored", `{"x-custom":{"type":"nonsense"},"unevaluatedProperties":false,"contentMediaType":"text/plain"}`, `{"a":1}`, nil},
	})
}

func TestKeywordsArrays(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"items ok", `{"items":{"type":"integer"}}`, `[1,2]`, nil},
		{"items refused", `{"items":{"type":"integer"}}`, `[1,"x",true]`, at("/1", "expected type integer, got string", "/2", "expected type integer, got boolean")},
		{"items ignores objects", `{"items":{"type":"integer"}}`, `{"a":"x"}`, nil},
		{"items false", `{"items":false}`, `[1]`, at("/0", "extra item (the schema allows at most 0 items here)")},
		{"items false empty", `{"items":false}`, `[]`, nil},
		{"prefixItems ok", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `["a",1,{}]`, nil},
		{"prefixItems refused", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `[1,"a"]`, at("/0", "expected type string, got number", "/1", "expected type integer, got string")},
		{"prefixItems shorter input", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `["a"]`, nil},
		{"prefixItems and items", `{"prefixItems":[{"type":"string"}],"items":{"type":"boolean"}}`, `["a",true,1]`, at("/2", "expected type boolean, got number")},
		{"prefixItems and items false", `{"prefixItems":[{},{}],"items":false}`, `[1,2,3]`, at("/2", "extra item (the schema allows at most 2 items here)")},
		{"2020-12 ignores additionalItems", `{"prefixItems":[{}],"additionalItems":false}`, `[1,2]`, nil},
		{"draft-07 items array", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"},{"type":"integer"}]}`, `["a","b",null]`, at("/1", "expected type integer, got string")},
		{"draft-07 additionalItems false", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`, `["a","b"]`, at("/1", "extra item (the schema allows at most 1 items here)")},
		{"draft-07 additionalItems schema", `{"items":[{"type":"string"}],"additionalItems":{"type":"integer"}}`, `["a",1,"c"]`, at("/2", "expected type integer, got string")},
		{"additionalItems ignored beside items schema", `{"items":{"type":"string"},"additionalItems":false}`, `["a","b"]`, nil},
		{"minItems ok", `{"minItems":1}`, `[0]`, nil},
		{"minItems refused", `{"minItems":2}`, `[0]`, at("", "minItems: got 1 item, want at least 2")},
		{"maxItems refused", `{"maxItems":1}`, `[0,1]`, at("", "maxItems: got 2 items, want at most 1")},
		{"uniqueItems ok", `{"uniqueItems":true}`, `[1,"1",[1],{"a":1},true,null]`, nil},
		{"uniqueItems refused", `{"uniqueItems":true}`, `[1,2,1.0]`, at("", "uniqueItems: items 0 and 2 are equal")},
		{"uniqueItems objects", `{"uniqueItems":true}`, `[{"a":1,"b":[2]},{"b":[2.0],"a":1}]`, at("", "uniqueItems: items 0 and 1 are equal")},
		{"uniqueItems false", `{"uniqueItems":false}`, `[1,1]`, nil},
		{"uniqueItems long ok", `{"uniqueItems":true}`, `[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"18",[18],{"18":18}]`, nil},
		{"uniqueItems long refused", `{"uniqueItems":true}`, `[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,{"x":[1e1]},{"x":[10]}]`, at("", "uniqueItems: items 18 and 19 are equal")},
		{"contains ok", `{"contains":{"type":"string"}}`, `[1,"a"]`, nil},
		{"contains refused", `{"contains":{"type":"string"}}`, `[1,2]`, at("", `no item matches the schema under "contains"`)},
		{"contains empty array", `{"contains":{}}`, `[]`, at("", `no item matches the schema under "contains"`)},
		{"minContains ok", `{"contains":{"const":1},"minContains":2}`, `[1,2,1]`, nil},
		{"minContains refused", `{"contains":{"const":1},"minContains":2}`, `[1,2]`, at("", `minContains: 1 item matches the schema under "contains", want at least 2`)},
		{"minContains 0", `{"contains":{"const":1},"minContains":0}`, `[2]`, nil},
		{"maxContains refused", `{"contains":{"const":1},"maxContains":1}`, `[1,1]`, at("", `maxContains: 2 items match the schema under "contains", want at most 1`)},
		{"maxContains without contains", `{"maxContains":0}`, `[1]`, nil},
		{"nested location", `{"items":{"items":{"type":"string"}}}`, `[[],["a",2]]`, at("/1/1", "expected type string, got number")},
	})
}

func TestKeywordsObjects(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"properties ok", `{"properties":{"a":{"type":"string"}}}`, `{"a":"x","b":1}`, nil},
		{"properties refused", `{"properties":{"a":{"type":"string"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"property false", `{"properties":{"a":false}}`, `{"a":1}`, at("/a", "not allowed here (the schema is false)")},
		{"required", `{"required":["a","b"]}`, `{"a":1}`, at("/b", "missing required property")},
		{"required on non-objects", `{"required":["a"]}`, `"x"`, nil},
		{"additionalProperties false", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, at("/b", "unknown property (the schema does not allow it)")},
		{"additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, `{"a":"x","b":2,"c":"y"}`, at("/c", "expected type integer, got string")},
		{"additionalProperties true", `{"additionalProperties":true}`, `{"a":1}`, nil},
		{"patternProperties", `{"patternProperties":{"^x-":{"type":"string"}}}`, `{"x-a":"s","x-b":1,"y":1}`, at("/x-b", "expected type string, got number")},
		{"patternProperties and additionalProperties", `{"patternProperties":{"^x-":{}},"additionalProperties":false}`, `{"x-a":1,"y":1}`, at("/y", "unknown property (the schema does not allow it)")},
		{"property and pattern both apply", `{"properties":{"ab":{"type":"string"}},"patternProperties":{"b$":{"maxLength":1}}}`, `{"ab":"xyz"}`, at("/ab", "maxLength: got 3 characters, want at most 1")},
		{"propertyNames ok", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"abc":1}`, nil},
		{"propertyNames refused", `{"propertyNames":{"maxLength":3}}`, `{"abcd":1,"ab":2}`, at("/abcd", "invalid property name: maxLength: got 4 characters, want at most 3")},
		{"propertyNames false", `{"propertyNames":false}`, `{}`, nil},
		{"minProperties ok", `{"minProperties":1}`, `{"a":1}`, nil},
		{"minProperties refused", `{"minProperties":1}`, `{}`, at("", "minProperties: got 0 properties, want at least 1")},
		{"maxProperties refused", `{"maxProperties":1}`, `{"a":1,"b":2}`, at("", "maxProperties: got 2 properties, want at most 1")},
		{"dependentRequired ok", `{"dependentRequired":{"a":["b"]}}`, `{"a":1,"b":2}`, nil},
		{"dependentRequired absent trigger", `{"dependentRequired":{"a":["b"]}}`, `{"c":1}`, nil},
		{"dependentRequired refused", `{"dependentRequired":{"a":["b","c"]}}`, `{"a":1,"c":2}`, at("/b", `missing required property (required when "a" is present)`)},
		{"draft-07 dependencies array", `{"dependencies":{"a":["b"]}}`, `{"a":1}`, at("/b", `missing required property (required when "a" is present)`)},
		{"draft-07 dependencies schema", `{"dependencies":{"a":{"required":["c"]}}}`, `{"a":1}`, at("/c", "missing required property")},
		{"dependentSchemas", `{"dependentSchemas":{"a":{"properties":{"b":{"type":"string"}}}}}`, `{"a":1,"b":2}`, at("/b", "expected type string, got number")},
		{"dependentSchemas absent trigger", `{"dependentSchemas":{"a":false}}`, `{"b":2}`, nil},
		{"escaped locations", `{"properties":{"a/b":{"properties":{"c~d":{"type":"string"}}}}}`, `{"a/b":{"c~d":1}}`, at("/a~1b/c~0d", "expected type string, got number")},
		{"every violation, sorted", `{"properties":{"z":{"type":"string"},"a":{"type":"string"}},"required":["m"]}`, `{"z":1,"a":2}`, at("/a", "expected type string, got number", "/m", "missing required property", "/z", "expected type string, got number")},
	})
}

func TestKeywordsCombinations(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"allOf ok", `{"allOf":[{"type":"integer"},{"minimum":1}]}`, `2`, nil},
		{"allOf refused, each listed", `{"allOf":[{"type":"integer"},{"minimum":1}]}`, `0.5`, at("", "expected type integer, got number", "", "minimum: got 0.5, want 1")},
		{"anyOf ok", `{"anyOf":[{"type":"string"},{"minimum":3}]}`, `4`, nil},
		{"anyOf refused", `{"anyOf":[{"type":"string"},{"minimum":3}]}`, `1`, at("", "matches none of the allowed alternatives: [1: expected type string, got number] [2: minimum: got 1, want 3]")},
		{"anyOf deeper locations", `{"anyOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}}}]}`, `{"b":1}`, at("", "matches none of the allowed alternatives: [1: at /a: missing required property] [2: at /b: expected type string, got number]")},
		{"anyOf in a property", `{"properties":{"p":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`, `{"p":1}`, at("/p", "matches none of the allowed alternatives: [1: expected type string, got number] [2: expected type null, got number]")},
		{"oneOf ok", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `1`, nil},
		{"oneOf none", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `1.5`, at("", "matches none of the allowed alternatives: [1: expected type string, got number] [2: expected type integer, got number]")},
		{"oneOf several", `{"oneOf":[{"type":"number"},{"type":"integer"},{"type":"string"}]}`, `1`, at("", "matches alternatives 1 and 2 of a oneOf; it must match exactly one")},
		{"not ok", `{"not":{"type":"string"}}`, `1`, nil},
		{"not refused", `{"not":{"type":"string"}}`, `"a"`, at("", `must not match the schema under "not"`)},
		{"if then ok", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`, `{"k":"a","a":1}`, nil},
		{"if then refused", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`, `{"k":"a"}`, at("/a", "missing required property")},
		{"if else refused", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`, `{"k":"z"}`, at("/b", "missing required property")},
		{"then without if ignored", `{"then":false}`, `1`, nil},
		{"if without then", `{"if":{"type":"string"}}`, `1`, nil},
	})
}

func TestKeywordsRefsAndBooleans(t *testing.T) {
	const tree = `{
		"$defs": {"node": {"type": "object", "properties": {
			"name": {"type": "string"},
			"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}
		}, "required": ["name"]}},
		"$ref": "#/$defs/node"
	}`
	runKeywordCases(t, []keywordCase{
		{"true schema", `true`, `{"a":[1]}`, nil},
		{"false schema", `false`, `1`, at("", "not allowed here (the schema is false)")},
		{"false in allOf", `{"allOf":[true,false]}`, `null`, at("", "not allowed here (the schema is false)")},
		{"ref to $defs", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"ref to definitions", `{"definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"ref to a property", `{"properties":{"a":{"type":"integer"},"b":{"$ref":"#/properties/a"}}}`, `{"b":"x"}`, at("/b", "expected type integer, got string")},
		{"ref with escaped pointer", `{"$defs":{"a/b":{"const":1},"c~d":{"const":2},"e f":{"const":3}},"properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"},"z":{"$ref":"#/$defs/e%20f"}}}`, `{"x":1,"y":2,"z":4}`, at("/z", "must be 3; got 4")},
		{"ref into an array", `{"anyOf":[{"type":"string"}],"properties":{"a":{"$ref":"#/anyOf/0"}}}`, `"s"`, nil},
		{"ref to root", `{"properties":{"self":{"$ref":"#"}},"required":["n"]}`, `{"n":1,"self":{"n":2,"self":{}}}`, at("/self/self/n", "missing required property")},
		{"ref with siblings (2020-12)", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":2}`, `"abc"`, at("", "maxLength: got 3 characters, want at most 2")},
		{"ref siblings ignored (draft-07)", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"$ref":"#/definitions/s","maxLength":2}`, `"abc"`, nil},
		{"anchor", `{"$defs":{"s":{"$anchor":"str","type":"string"}},"properties":{"a":{"$ref":"#str"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"draft-07 $id anchor", `{"definitions":{"s":{"$id":"#str","type":"string"}},"properties":{"a":{"$ref":"#str"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"own $id", `{"$id":"https://example.com/tool.json","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"https://example.com/tool.json#/$defs/s"},"b":{"$ref":"#/$defs/s"}}}`, `{"a":1,"b":"x"}`, at("/a", "expected type string, got number")},
		{"embedded $id", `{"$id":"https://example.com/root.json","$defs":{"s":{"$id":"str.json","type":"string"}},"properties":{"a":{"$ref":"str.json"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"recursive tree ok", tree, `{"name":"r","kids":[{"name":"a","kids":[{"name":"b"}]}]}`, nil},
		{"recursive tree refused", tree, `{"name":"r","kids":[{"name":"a","kids":[{"kids":[]}]}]}`, at("/kids/0/kids/0/name", "missing required property")},
		{"mutually recursive", `{"$defs":{"a":{"properties":{"b":{"$ref":"#/$defs/b"}}},"b":{"properties":{"a":{"$ref":"#/$defs/a"}},"type":"object"}},"$ref":"#/$defs/a"}`, `{"b":{"a":{"b":1}}}`, at("/b/a/b", "expected type object, got number")},
		{"recursion through anyOf and items", `{"anyOf":[{"type":"integer"},{"type":"array","items":{"$ref":"#"}}]}`, `[1,[2,[3]]]`, nil},
		{"$dynamicRef resolved like $ref", `{"$defs":{"s":{"$dynamicAnchor":"s","type":"string"}},"properties":{"a":{"$dynamicRef":"#s"}}}`, `{"a":1}`, at("/a", "expected type string, got number")},
		{"unused bad $defs ignored", `{"$defs":{"bad":{"pattern":"(?=x)"}}}`, `1`, nil},
	})
}

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		cmp  int
	}{
		{"0", "-0", 0}, {"0", "0.0e10", 0}, {"1", "1.0", 0}, {"100", "1e2", 0}, {"0.001", "1e-3", 0},
		{"1", "2", -1}, {"-1", "-2", 1}, {"-1", "1", -1}, {"0.1", "0.10000000000000000001", -1},
		{"123.45", "1.2345E2", 0}, {"9", "10", -1}, {"1e400", "1e401", -1}, {"-1e-400", "0", -1},
		{"12345678901234567890", "12345678901234567891", -1}, {"0.5", "0.05", 1},
	} {
		a, ok1 := parseDecimal(tc.a)
		b, ok2 := parseDecimal(tc.b)
		if !ok1 || !ok2 {
			t.Fatalf("parse %q %q: %v %v", tc.a, tc.b, ok1, ok2)
		}
		if got := cmpDecimal(a, b); got != tc.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.cmp)
		}
		if got := cmpDecimal(b, a); got != -tc.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.cmp)
		}
	}
	for _, bad := range []string{"", "-", "1.", ".1", "1e", "1e+", "01x", "1..2", "--1", "+1", "1e1.5"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("parseDecimal(%q) accepted", bad)
		}
	}
	for _, tc := range []struct {
		v, m string
		want bool
	}{
		{"10", "5", true}, {"10", "3", false}, {"0.3", "0.1", true}, {"1", "0.3", false}, {"4.5", "1.5", true},
		{"1e30", "1e10", true}, {"1e10", "1e30", false}, {"7e-5", "1e-5", true}, {"-6", "4", false}, {"-8", "4", true},
		{"12345678901234567890124", "3", false}, {"12345678901234567890123", "3", true}, {"12345678901234567890124", "2", true},
	} {
		v, _ := parseDecimal(tc.v)
		m, _ := parseDecimal(tc.m)
		if got := multipleOf(v, m); got != tc.want {
			t.Errorf("multipleOf(%s, %s) = %v, want %v", tc.v, tc.m, got, tc.want)
		}
	}
}

func TestSchemaCompileIsLenient(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"type":"string","format":"uri","x-order":1,"deprecated":true}}}`,
		`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","$recursiveAnchor":true,"properties":{"kids":{"items":{"$recursiveRef":"#"}}}}`,
		`{"$schema":"something unknown","type":"object"}`,
		`{"type":"object","unevaluatedProperties":false,"nullable":true,"discriminator":{"propertyName":"k"}}`,
		`{"type":"object","properties":{}, "required":[]}`,
	} {
		if _, err := CompileSchema("t", json.RawMessage(schema)); err != nil {
			t.Errorf("CompileSchema(%s): %v", schema, err)
		}
	}
}

func TestPrepareThroughRootRef(t *testing.T) {
	s, err := CompileSchema("gen", json.RawMessage(`{"$ref":"#/$defs/In","$defs":{"In":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Prepare(json.RawMessage(`{"a":"x","extra":1}`))
	if err != nil || string(got) != `{"a":"x"}` {
		t.Fatalf("Prepare = %s, %v", got, err)
	}
}

func FuzzValidate(f *testing.F) {
	seeds := [][2]string{
		{helloSchema, `{"name":"x","count":2,"mode":"fast","opts":{"depth":1,"tags":["a"]},"id":"q"}`},
		{`{"$defs":{"n":{"properties":{"k":{"items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}`, `{"k":[{"k":[]}]}`},
		{`{"items":[{"type":"string"}],"additionalItems":false,"uniqueItems":true}`, `["a",1,1]`},
		{`{"anyOf":[{"multipleOf":0.1},{"oneOf":[{"const":1},{"enum":[1.0]}]}],"not":{"maximum":-1e400}}`, `1e-9`},
		{`{"patternProperties":{"^a":{"minLength":2}},"propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]}}`, `{"aaaa":"x"}`},
		{`{"if":{"minimum":0},"then":{"exclusiveMaximum":10},"else":{"contains":{"const":null},"maxContains":1}}`, `[null,null]`},
		{`{"$ref":"#"}`, `{}`},
		{`true`, `null`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, schema, input string) {
		doc, err := decodeJSON([]byte(schema))
		if err != nil {
			return
		}
		root, err := compileDocument(doc)
		if err != nil {
			return
		}
		v, err := decodeJSON([]byte(input))
		if err != nil {
			return
		}
		vs := root.violations(v)
		if valid := root.check(v, nil, nil); valid != (vs == nil) {
			t.Fatalf("quick check says valid=%v, full check %v", valid, vs)
		}
		if obj, ok := v.(map[string]any); ok {
			s := &Schema{tool: "fuzz", root: root}
			_ = s.validateDoc("fuzz", obj)
			_, _ = s.Prepare(json.RawMessage(input))
		}
	})
}

// FuzzDecodeJSON holds the short-path decoder to encoding/json: whatever
// it decodes, encoding/json (with UseNumber) decodes to the same value.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,-2.5e3,true,false,null,"x"],"b":{"c":"d\u00e9\n"}}`, `  [] `, `0`, `-0.0E+1`, `"\ud800"`, "\"\xff\"",
		`{"a":1,"a":2}`, `[01]`, `{"a" 1}`, `1 2`, `tru`, `[1,]`, `{"a":1,}`, "\"a\tb\"", `"\/\\"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := scanJSON(raw)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var slow any
		err := dec.Decode(&slow)
		if err == nil {
			if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
				err = errors.New("trailing data")
			}
		}
		if !ok {
			return // encoding/json decides
		}
		if err != nil {
			t.Fatalf("short path decoded %q, encoding/json refused it: %v", raw, err)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Fatalf("decoded %q differently (-encoding/json +short path):\n%s", raw, d)
		}
	})
}
