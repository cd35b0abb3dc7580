package tool_test

// Benchmarks of tool input validation: this package's validator against
// github.com/google/jsonschema-go, which the binary links anyway through
// the MCP SDK. docs/architecture.md ("Why not google/jsonschema-go")
// records the medians and why this package keeps its own. Run:
//
//	go test ./internal/tool -run '^$' -bench 'Schema(Compile|Valid|Invalid)' -benchmem -count 5
//
// Both sides start from the bytes the model sent (or the bytes of the
// schema), since that is what a tool call starts from.

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// mcpSchema is a typical MCP server's tool schema, as zod-to-json-schema
// writes it: nested objects, enums, a pattern, anyOf for a nullable value.
const mcpSchema = `{
	"$schema": "http://json-schema.org/draft-07/schema#",
	"type": "object",
	"properties": {
		"owner":     {"type": "string", "pattern": "^[A-Za-z0-9-]+$", "description": "Repository owner"},
		"repo":      {"type": "string", "minLength": 1},
		"title":     {"type": "string", "maxLength": 256},
		"body":      {"type": "string"},
		"labels":    {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
		"state":     {"type": "string", "enum": ["open", "closed"]},
		"assignee":  {"anyOf": [{"type": "string"}, {"type": "null"}]},
		"milestone": {
			"type": "object",
			"properties": {
				"number": {"type": "integer", "minimum": 1},
				"due":    {"type": "string", "format": "date-time"}
			},
			"required": ["number"],
			"additionalProperties": false
		},
		"per_page":  {"type": "integer", "minimum": 1, "maximum": 100, "default": 30}
	},
	"required": ["owner", "repo", "title"],
	"additionalProperties": false
}`

type benchCase struct {
	name           string
	schema         json.RawMessage
	valid, invalid json.RawMessage
}

func benchCases(b *testing.B) []benchCase {
	specs := map[string]tool.Spec{}
	for _, t := range builtin.All(builtin.Options{}) {
		specs[t.Spec().RuntimeName] = t.Spec()
	}
	return []benchCase{
		{"bash", specs["bash"].InputSchema,
			json.RawMessage(`{"command":"go test ./internal/tool/ -run TestSchema","timeout":120}`),
			json.RawMessage(`{"command":["go","test"],"timeout":-1}`)},
		{"edit", specs["edit"].InputSchema,
			json.RawMessage(`{"path":"internal/tool/schema.go","old_string":"func (s *Schema) Validate(input json.RawMessage) error {\n\treturn s.validate(s.tool, input)\n}","new_string":"func (s *Schema) Validate(input json.RawMessage) error {\n\treturn s.validate(s.tool, input) // checked\n}"}`),
			json.RawMessage(`{"path":"a.go","old_string":"x","replace_all":"yes"}`)},
		{"mcp", json.RawMessage(mcpSchema),
			json.RawMessage(`{"owner":"synaps-cli","repo":"synaps","title":"Loose ends","body":"Four items.","labels":["cleanup","schema"],"state":"open","assignee":null,"milestone":{"number":3,"due":"2025-07-01T00:00:00Z"},"per_page":50}`),
			json.RawMessage(`{"owner":"synaps cli","repo":"synaps","labels":["a","a"],"state":"merged","milestone":{"number":0,"extra":1},"per_page":500}`)},
	}
}

// library compiles schema with jsonschema-go as an adapter would:
// unmarshal, then resolve with a base URI and no loader (so references
// outside the schema are refused, as they are here).
func library(schema json.RawMessage) (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	return s.Resolve(&jsonschema.ResolveOptions{BaseURI: "synaps-tool:///input.json"})
}

// libraryValidate checks raw input as an adapter would: decode, validate.
func libraryValidate(rs *jsonschema.Resolved, input json.RawMessage) error {
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}

func BenchmarkSchemaCompile(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/synaps", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tool.CompileSchema(c.name, c.schema); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/jsonschema-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := library(c.schema); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSchemaValid(b *testing.B) {
	for _, c := range benchCases(b) {
		ours, err := tool.CompileSchema(c.name, c.schema)
		if err != nil {
			b.Fatal(err)
		}
		lib, err := library(c.schema)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/synaps", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := ours.Validate(c.valid); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/jsonschema-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := libraryValidate(lib, c.valid); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSchemaInvalid(b *testing.B) {
	for _, c := range benchCases(b) {
		ours, err := tool.CompileSchema(c.name, c.schema)
		if err != nil {
			b.Fatal(err)
		}
		lib, err := library(c.schema)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/synaps", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := ours.Validate(c.invalid); err == nil {
					b.Fatal("invalid input accepted")
				} else {
					_ = err.Error() // the text the model gets
				}
			}
		})
		b.Run(c.name+"/jsonschema-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := libraryValidate(lib, c.invalid); err == nil {
					b.Fatal("invalid input accepted")
				} else {
					_ = err.Error()
				}
			}
		})
	}
}
