package tool

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const helloSchema = `{
	"type": "object",
	"properties": {
		"name":  {"type": "string"},
		"count": {"type": "integer", "minimum": 0},
		"mode":  {"enum": ["fast", "slow"]},
		"opts":  {
			"type": "object",
			"properties": {"depth": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
			"required": ["depth"],
			"additionalProperties": false
		},
		"id":    {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 3}]},
		"a/b":   {"const": 1}
	},
	"required": ["name"],
	"additionalProperties": false
}`

func TestSchemaValidate(t *testing.T) {
	s, err := CompileSchema("hello", json.RawMessage(helloSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		input string
		want  []Violation // nil: valid
	}{
		{"valid", `{"name":"x","count":2,"mode":"fast","opts":{"depth":1,"tags":["a"]},"id":"q"}`, nil},
		{"valid integer-valued float", `{"name":"x","count":2.0}`, nil},
		{"missing required", `{}`, []Violation{{"/name", "missing required property"}}},
		{"empty input is {}", ``, []Violation{{"/name", "missing required property"}}},
		{"wrong type", `{"name":5}`, []Violation{{"/name", "expected type string, got number"}}},
		{"integer", `{"name":"x","count":1.5}`, []Violation{{"/count", "expected type integer, got number"}}},
		{"minimum", `{"name":"x","count":-1}`, []Violation{{"/count", "minimum: got -1, want 0"}}},
		{"additionalProperties false", `{"name":"x","extra":true}`, []Violation{{"/extra", "unknown property (the schema does not allow it)"}}},
		{"enum", `{"name":"x","mode":"medium"}`, []Violation{{"/mode", `must be one of "fast", "slow"; got "medium"`}}},
		{"const and escaped pointer", `{"name":"x","a/b":2}`, []Violation{{"/a~1b", "must be 1; got 2"}}},
		{"nested", `{"name":"x","opts":{"tags":["a",3],"deep":1}}`, []Violation{
			{"/opts/deep", "unknown property (the schema does not allow it)"},
			{"/opts/depth", "missing required property"},
			{"/opts/tags/1", "expected type string, got number"},
		}},
		{"anyOf", `{"name":"x","id":1}`, []Violation{
			{"/id", "matches none of the allowed alternatives: [1: expected type string, got number] [2: minimum: got 1, want 3]"},
		}},
		{"every violation listed", `{"count":"many","mode":1}`, []Violation{
			{"/count", "expected type integer, got string"},
			{"/mode", `must be one of "fast", "slow"; got 1`},
			{"/name", "missing required property"},
		}},
		{"not an object", `["name"]`, []Violation{{"", "input must be a JSON object, got array"}}},
		{"string input", `"hi"`, []Violation{{"", "input must be a JSON object, got string"}}},
		{"not JSON", `{name: 1}`, []Violation{{"", "input is not valid JSON: invalid character 'n' looking for beginning of object key string"}}},
		{"trailing garbage", `{"name":"x"} {}`, []Violation{{"", "input is not valid JSON: invalid character after top-level value"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Validate(json.RawMessage(tc.input))
			var got []Violation
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Fatalf("error is %T, want *InputError: %v", err, err)
				}
				if ie.Tool != "hello" {
					t.Errorf("Tool = %q", ie.Tool)
				}
				got = ie.Violations
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("violations (-want +got):\n%s\nerror: %v", d, err)
			}
		})
	}
}

func TestInputErrorText(t *testing.T) {
	s, err := CompileSchema("hello", json.RawMessage(helloSchema))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Validate(json.RawMessage(`{"count":"x"}`)).Error()
	want := `invalid input for tool "hello": at /count: expected type integer, got string; at /name: missing required property`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}

	many := &InputError{Tool: "t"}
	for range maxViolations + 3 {
		many.Violations = append(many.Violations, Violation{"/x", "bad"})
	}
	if txt := many.Error(); !strings.HasSuffix(txt, "; … and 3 more") || strings.Count(txt, "bad") != maxViolations {
		t.Fatalf("capped text = %q", txt)
	}
}

func TestCompileSchemaErrors(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"not JSON", `{"type":`, `tool "ext:t": input schema is not valid JSON`},
		{"not an object", `["object"]`, `tool "ext:t": input schema must be a JSON object, got array`},
		{"bad type", `{"type":"strng"}`, `tool "ext:t": invalid input schema: at #/type: unknown type "strng" (use array, boolean, integer, null, number, object or string)`},
		{"bad type in a list", `{"properties":{"a":{"type":["string",1]}}}`, `tool "ext:t": invalid input schema: at #/properties/a/type: must be a type name or an array of them`},
		{"external ref refused", `{"$ref":"file:///etc/passwd"}`, `tool "ext:t": invalid input schema: at #/$ref: "file:///etc/passwd" points outside the schema; a tool schema must be self-contained`},
		{"network ref refused", `{"properties":{"a":{"$ref":"http://example.com/s.json#/x"}}}`, `tool "ext:t": invalid input schema: at #/properties/a/$ref: "http://example.com/s.json#/x" points outside the schema`},
		{"relative ref refused", `{"$ref":"other.json"}`, `tool "ext:t": invalid input schema: at #/$ref: "other.json" points outside the schema`},
		{"dangling ref", `{"$ref":"#/$defs/nope"}`, `tool "ext:t": invalid input schema: at #/$ref: "#/$defs/nope" points nowhere in the schema (no "$defs" there); define it or fix the pointer`},
		{"dangling ref in defs", `{"$defs":{"a":{}},"items":{"$ref":"#/$defs/b"}}`, `tool "ext:t": invalid input schema: at #/items/$ref: "#/$defs/b" points nowhere in the schema (no "b" there)`},
		{"unknown anchor", `{"$ref":"#thing"}`, `tool "ext:t": invalid input schema: at #/$ref: "#thing" names no "$anchor" in the schema`},
		{"unsupported regexp", `{"properties":{"a":{"pattern":"(?=x)"}}}`, `tool "ext:t": invalid input schema: at #/properties/a/pattern: Go's regexp (RE2) cannot compile "(?=x)": error parsing regexp: invalid or unsupported Perl syntax: ` + "`(?=`" + `; rewrite it without lookaround or backreferences`},
		{"unsupported patternProperties regexp", `{"patternProperties":{"(a)\\1":{}}}`, `tool "ext:t": invalid input schema: at #/patternProperties/(a)\1: Go's regexp (RE2) cannot compile`},
		{"ref loop", `{"$ref":"#"}`, `tool "ext:t": invalid input schema: at #: this schema leads back to itself through "$ref" without going into a property or an item`},
		{"ref loop through anyOf", `{"$defs":{"a":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/b"}]},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"x":{"$ref":"#/$defs/a"}}}`, `tool "ext:t": invalid input schema: at #/$defs/a: this schema leads back to itself`},
		{"subschema not a schema", `{"properties":{"a":3}}`, `tool "ext:t": invalid input schema: at #/properties/a: a schema must be an object or a boolean, got number`},
		{"negative count", `{"minLength":-1}`, `tool "ext:t": invalid input schema: at #/minLength: must be a whole number of at least 0, got number -1`},
		{"fractional count", `{"maxItems":1.5}`, `tool "ext:t": invalid input schema: at #/maxItems: must be a whole number of at least 0, got number 1.5`},
		{"multipleOf 0", `{"multipleOf":0}`, `tool "ext:t": invalid input schema: at #/multipleOf: must be greater than 0, got 0`},
		{"minimum not a number", `{"minimum":"1"}`, `tool "ext:t": invalid input schema: at #/minimum: must be a number, got string`},
		{"empty anyOf", `{"anyOf":[]}`, `tool "ext:t": invalid input schema: at #/anyOf: must be a non-empty array of schemas, got array`},
		{"required not names", `{"required":"a"}`, `tool "ext:t": invalid input schema: at #/required: must be an array of property names, got string`},
		{"enum not an array", `{"enum":"a"}`, `tool "ext:t": invalid input schema: at #/enum: must be an array of the allowed values, got string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := CompileSchema("ext:t", json.RawMessage(tc.schema))
			if err == nil || s != nil {
				t.Fatalf("CompileSchema = %v, %v; want an error", s, err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %q\nwant prefix %q", err, tc.want)
			}
		})
	}
}

func TestCompileSchemaAccepts(t *testing.T) {
	for _, schema := range []string{
		``, `null`, `{}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}}}`,
		`{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`,
	} {
		s, err := CompileSchema("t", json.RawMessage(schema))
		if err != nil {
			t.Errorf("CompileSchema(%s): %v", schema, err)
			continue
		}
		if err := s.Validate(json.RawMessage(`{"a":"x"}`)); err != nil {
			t.Errorf("schema %s rejected a valid input: %v", schema, err)
		}
		if err := s.Validate(json.RawMessage(`[]`)); err == nil {
			t.Errorf("schema %s accepted a non-object input", schema)
		}
	}
}

func TestValidatorCachesAndToleratesBadSchemas(t *testing.T) {
	var reported []string
	v := &Validator{OnSchemaError: func(name string, err error) { reported = append(reported, name+": "+err.Error()) }}

	good := fakeTool{Spec{RuntimeName: "ext:good", InputSchema: json.RawMessage(`{"type":"object","required":["q"]}`)}}
	if err := v.Validate(good, json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), `tool "ext:good": at /q: missing required property`) {
		t.Fatalf("good schema: %v", err)
	}
	s1, _ := v.cache.Load("ext:good")

	if err := v.Validate(good, json.RawMessage(`{"q":1}`)); err != nil {
		t.Fatal(err)
	}
	if s2, _ := v.cache.Load("ext:good"); s2 != s1 {
		t.Fatal("schema recompiled although unchanged")
	}

	bad := fakeTool{Spec{RuntimeName: "ext:bad", InputSchema: json.RawMessage(`{"type":"strng"}`)}}
	for range 3 {
		if err := v.Validate(bad, json.RawMessage(`{"anything":true}`)); err != nil {
			t.Fatalf("uncompilable schema must mean no validation, got %v", err)
		}
	}
	if err := v.Validate(bad, json.RawMessage(`42`)); err == nil {
		t.Fatal("non-object input accepted for a tool with a bad schema")
	}
	if len(reported) != 1 || !strings.HasPrefix(reported[0], `ext:bad: tool "ext:bad": invalid input schema`) {
		t.Fatalf("reported = %q, want exactly one report", reported)
	}

	// A reloaded extension with a changed schema is recompiled.
	fixed := fakeTool{Spec{RuntimeName: "ext:bad", InputSchema: json.RawMessage(`{"type":"object","required":["z"]}`)}}
	if err := v.Validate(fixed, json.RawMessage(`{}`)); err == nil {
		t.Fatal("changed schema not recompiled")
	}

	// The model-facing name is used when the registry's spec is given.
	err := v.ValidateSpec(Spec{Name: "ext_good", RuntimeName: "ext:good", InputSchema: good.spec.InputSchema}, nil)
	if err == nil || !strings.Contains(err.Error(), `tool "ext_good"`) {
		t.Fatalf("ValidateSpec error = %v", err)
	}
}

func TestValidateConcurrent(t *testing.T) {
	tl := fakeTool{Spec{RuntimeName: "c", InputSchema: json.RawMessage(helloSchema)}}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if err := Validate(tl, json.RawMessage(`{"name":"x"}`)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkValidateCached(b *testing.B) {
	tl := fakeTool{Spec{RuntimeName: "bench", InputSchema: json.RawMessage(`{
		"type":"object",
		"properties":{"command":{"type":"string"},"timeout":{"type":"number","minimum":0}},
		"required":["command"],
		"additionalProperties":false}`)}}
	in := json.RawMessage(`{"command":"echo hi","timeout":5}`)
	if err := Validate(tl, in); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(tl, in); err != nil {
			b.Fatal(err)
		}
	}
}
