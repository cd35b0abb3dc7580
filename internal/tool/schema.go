package tool

// Input validation. A model's tool input is checked against the tool's JSON
// Schema before the tool runs, and every violation is reported in one error
// whose text the model can act on:
//
//	invalid input for tool "hello": at /name: missing required property; at /count: expected type string, got number
//
// Schemas come from extensions too, so a schema that does not compile must
// never stop a tool: CompileSchema reports the problem, and Validator treats
// such a tool as "any JSON object is accepted" (reporting it once).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// maxViolations is how many violations an InputError lists before it
// summarises the rest as "… and N more".
const maxViolations = 20

// schemaURL is the base URI of a tool's schema (unless it has an "$id"):
// "$ref"s resolve against it, and any that leaves it is refused.
const schemaURL = "synaps-tool:///input.json"

// Schema is a compiled tool input schema. A Schema built from an empty or
// null schema accepts any JSON object.
type Schema struct {
	tool string
	root *node // nil: no constraints beyond "a JSON object"
}

// CompileSchema compiles a tool's input schema (schema_compile.go says
// which keywords are checked). Schemas are read as draft 2020-12, or as
// draft-07 when "$schema" names draft-07 or older. External references
// ($ref to a file or URL) are refused: a tool schema must be
// self-contained. The error names the tool, the place in the schema and
// the problem.
func CompileSchema(toolName string, schema json.RawMessage) (*Schema, error) {
	s := &Schema{tool: toolName}
	raw := bytes.TrimSpace(schema)
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("tool %q: input schema is not valid JSON: %v", toolName, err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("tool %q: input schema must be a JSON object, got %s", toolName, jsonType(doc))
	}
	root, err := compileDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("tool %q: invalid input schema: %v", toolName, err)
	}
	s.root = root
	return s, nil
}

// Validate checks input against the schema. Empty input counts as {} (some
// providers send no arguments for a tool without parameters). The error,
// if any, is an *InputError.
func (s *Schema) Validate(input json.RawMessage) error {
	return s.validate(s.tool, input)
}

func (s *Schema) validate(name string, input json.RawMessage) error {
	obj, err := parseInput(name, input)
	if err != nil {
		return err
	}
	return s.validateDoc(name, obj)
}

// parseInput reads an input that must be a JSON object; empty counts as {}.
func parseInput(name string, input json.RawMessage) (map[string]any, error) {
	raw := bytes.TrimSpace(input)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, &InputError{Tool: name, Violations: []Violation{{Message: "input is not valid JSON: " + err.Error()}}}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, &InputError{Tool: name, Violations: []Violation{{Message: "input must be a JSON object, got " + jsonType(doc)}}}
	}
	return obj, nil
}

// validateDoc checks a parsed input object against the schema.
func (s *Schema) validateDoc(name string, doc map[string]any) error {
	if s.root == nil {
		return nil
	}
	if vs := s.root.violations(doc); vs != nil {
		return &InputError{Tool: name, Violations: vs}
	}
	return nil
}

// violations checks v against n: nil when it is valid, else every
// violation, sorted by location.
func (n *node) violations(v any) []Violation {
	var vs []Violation
	if n.check(v, nil, &vs) {
		return nil
	}
	if len(vs) == 0 { // cannot happen, but never report "invalid" with no reason
		vs = []Violation{{Message: "does not match the tool's input schema"}}
	}
	sortViolations(vs)
	return slices.Compact(vs)
}

// sortViolations orders violations by location, then message.
func sortViolations(vs []Violation) {
	slices.SortStableFunc(vs, func(a, b Violation) int {
		if c := strings.Compare(a.Location, b.Location); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// InputError is a tool input that failed validation.
type InputError struct {
	Tool       string
	Violations []Violation
}

// Violation is one problem with an input.
type Violation struct {
	// Location is a JSON pointer into the input ("/files/0/path"); empty for
	// the input as a whole.
	Location string
	// Message says what is wrong, e.g. "expected type string, got number".
	Message string
}

func (v Violation) String() string {
	if v.Location == "" {
		return v.Message
	}
	return "at " + v.Location + ": " + v.Message
}

func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid input for tool %q: ", e.Tool)
	for i, v := range e.Violations {
		if i == maxViolations {
			fmt.Fprintf(&b, "; … and %d more", len(e.Violations)-maxViolations)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	return b.String()
}

func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	b := make([]byte, 0, len(t)+4)
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = append(b, t[i])
		}
	}
	return string(b)
}

func display(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "…"
	}
	return string(b)
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// Validator validates tool inputs, compiling each tool's schema once. The
// cache is keyed by runtime name and checked against the schema bytes, so a
// reloaded extension with a changed schema is recompiled. The zero value is
// ready to use.
type Validator struct {
	// OnSchemaError, if set, is called once for each tool whose schema does
	// not compile; such a tool then accepts any JSON object.
	OnSchemaError func(runtimeName string, err error)

	cache sync.Map // runtime name -> *cachedSchema
}

type cachedSchema struct {
	raw    []byte
	schema *Schema
}

// Validate checks input against t's input schema.
func (v *Validator) Validate(t Tool, input json.RawMessage) error {
	return v.ValidateSpec(t.Spec(), input)
}

// ValidateSpec checks input against spec.InputSchema. Errors name the tool by
// spec.Name (the name the model used) when set, else by its runtime name.
func (v *Validator) ValidateSpec(spec Spec, input json.RawMessage) error {
	name := spec.Name
	if name == "" {
		name = spec.RuntimeName
	}
	return v.schema(spec).validate(name, input)
}

func (v *Validator) schema(spec Spec) *Schema {
	old, ok := v.cache.Load(spec.RuntimeName)
	if ok && bytes.Equal(old.(*cachedSchema).raw, spec.InputSchema) {
		return old.(*cachedSchema).schema
	}
	s, err := CompileSchema(spec.RuntimeName, spec.InputSchema)
	if err != nil {
		s = &Schema{tool: spec.RuntimeName}
	}
	c := &cachedSchema{raw: bytes.Clone(spec.InputSchema), schema: s}
	var stored bool
	if ok {
		stored = v.cache.CompareAndSwap(spec.RuntimeName, old, c)
	} else {
		_, loaded := v.cache.LoadOrStore(spec.RuntimeName, c)
		stored = !loaded
	}
	if stored && err != nil && v.OnSchemaError != nil {
		v.OnSchemaError(spec.RuntimeName, err)
	}
	return s
}

// PrepareSpec readies input for spec's hooks and tool (see Schema.Prepare).
// Errors name the tool by spec.Name when set, else by its runtime name.
func (v *Validator) PrepareSpec(spec Spec, input json.RawMessage) (json.RawMessage, error) {
	name := spec.Name
	if name == "" {
		name = spec.RuntimeName
	}
	return v.schema(spec).prepare(name, input)
}

var defaultValidator Validator

// Prepare readies a model's input for spec's hooks and tool with a
// process-wide schema cache: see Schema.Prepare.
func Prepare(spec Spec, input json.RawMessage) (json.RawMessage, error) {
	return defaultValidator.PrepareSpec(spec, input)
}

// Validate checks input against t's input schema using a process-wide
// cache. A tool whose schema does not compile accepts any JSON object; call
// CompileSchema (or use a Validator with OnSchemaError) to learn why.
func Validate(t Tool, input json.RawMessage) error {
	return defaultValidator.Validate(t, input)
}
