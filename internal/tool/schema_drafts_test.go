package tool

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tool schemas from MCP servers and extensions name whatever draft their
// generator knew, or none. Every one of them must validate inputs; none may
// turn every call into an error about the draft (jsonschema-go refuses to
// validate with any "$schema" but draft-07 and 2020-12, and cannot read
// draft-04's boolean exclusiveMinimum at all: docs/architecture.md).
func TestSchemaEveryDraftValidates(t *testing.T) {
	for _, draft := range []string{
		"",
		"http://json-schema.org/draft-04/schema#",
		"http://json-schema.org/draft-06/schema#",
		"http://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2019-09/schema",
		"https://json-schema.org/draft/2020-12/schema",
		"http://json-schema.org/schema#",
		"something unknown",
	} {
		t.Run(draft, func(t *testing.T) {
			head := ""
			if draft != "" {
				head = `"$schema":` + strings.Trim(string(mustJSON(t, draft)), "\n") + `,`
			}
			s, err := CompileSchema("mcp_tool", json.RawMessage(`{`+head+`"type":"object","properties":{"n":{"type":"integer"},"m":{"type":"number","minimum":0}},"required":["n"]}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(json.RawMessage(`{"n":1,"m":0}`)); err != nil {
				t.Fatalf("valid input refused: %v", err)
			}
			var got []Violation
			if ie, ok := s.Validate(json.RawMessage(`{"n":"x","m":-1}`)).(*InputError); ok {
				got = ie.Violations
			}
			want := at("/m", "minimum: got -1, want 0", "/n", "expected type integer, got string")
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("violations (-want +got):\n%s", d)
			}
		})
	}
}

// A schema whose $ref leads back to itself would make validation recurse
// forever (jsonschema-go overflows the stack, which kills the process): it
// is refused when compiled, reported once with the tool's name, and the
// tool takes any JSON object.
func TestValidatorRefusesRefLoop(t *testing.T) {
	var reported []string
	v := &Validator{OnSchemaError: func(name string, err error) { reported = append(reported, err.Error()) }}
	loop := fakeTool{Spec{RuntimeName: "ext:loop", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"$ref":"#/$defs/x"}]}}}`)}}
	for range 2 {
		if err := v.Validate(loop, json.RawMessage(`{"a":{"b":[1]}}`)); err != nil {
			t.Fatalf("tool with a refused schema must take any object, got %v", err)
		}
	}
	want := []string{`tool "ext:loop": invalid input schema: at #/$defs/x: this schema leads back to itself through "$ref" without going into a property or an item, so checking an input would never end; make the recursion go through "properties" or "items"`}
	if d := cmp.Diff(want, reported); d != "" {
		t.Fatalf("reported (-want +got):\n%s", d)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
