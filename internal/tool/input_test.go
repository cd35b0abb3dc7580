package tool

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrepare(t *testing.T) {
	strict, err := CompileSchema("bash", json.RawMessage(`{
		"type": "object",
		"properties": {"command": {"type": "string"}, "opts": {"type": "object", "additionalProperties": false}},
		"patternProperties": {"^x-": {"type": "string"}},
		"required": ["command"],
		"additionalProperties": false
	}`))
	if err != nil {
		t.Fatal(err)
	}
	open, err := CompileSchema("ext", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name   string
		schema *Schema
		input  string
		want   string // the prepared input; "" when an error is wanted
		err    string // a substring of the error
	}{
		{"valid unchanged", strict, `{"command":"ls -l","x-note":"a"}`, `{"command":"ls -l","x-note":"a"}`, ""},
		{"empty is {}", open, ``, `{}`, ""},
		{"unknown top-level dropped", strict, `{"description":"list <files> & more","command":"ls","extra":{"a":[1,2]}}`, `{"command":"ls"}`, ""},
		{"kept values byte for byte", strict, `{"command":"a<b&c","zz":1}`, `{"command":"a<b&c"}`, ""},
		{"wrong type stays an error", strict, `{"command":5,"description":"x"}`, "", `invalid input for tool "bash": at /command: expected type string, got number`},
		{"nested unknown stays an error", strict, `{"command":"ls","opts":{"deep":1}}`, "", "at /opts/deep: unknown property"},
		{"open schema keeps extras", open, `{"n":1,"more":true}`, `{"n":1,"more":true}`, ""},
		{"depth at the limit", open, `{"a":` + deep(MaxInputDepth-1) + `}`, `{"a":` + deep(MaxInputDepth-1) + `}`, ""},
		{"too deep", open, `{"a":` + deep(MaxInputDepth) + `}`, "", "more than 64 levels deep"},
		{"5000 deep in a dropped property", strict, `{"command":"ls","x":` + deep(5000) + `}`, "", "more than 64 levels deep"},
		{"brackets in strings do not count", open, `{"s":"` + deep(100) + `"}`, `{"s":"` + deep(100) + `"}`, ""},
		{"escaped quote in a string", open, `{"s":"\"[[[","t":[1]}`, `{"s":"\"[[[","t":[1]}`, ""},
		{"not an object", strict, `[1]`, "", "input must be a JSON object, got array"},
		{"not JSON", strict, `{"command":`, "", "input is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.schema.Prepare(json.RawMessage(tc.input))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, string(got)); d != "" {
				t.Errorf("prepared input (-want +got):\n%s", d)
			}
		})
	}
}

// PrepareSpec names the tool as the model knows it.
func TestPrepareSpecNamesModelFacingTool(t *testing.T) {
	var v Validator
	_, err := v.PrepareSpec(Spec{Name: "hello-ext_hello", RuntimeName: "hello-ext:hello", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}, json.RawMessage(`{"name":1}`))
	if err == nil || !strings.HasPrefix(err.Error(), `invalid input for tool "hello-ext_hello": at /name:`) {
		t.Fatalf("err = %v", err)
	}
}
