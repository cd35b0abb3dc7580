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
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// maxViolations is how many violations an InputError lists before it
// summarises the rest as "… and N more".
const maxViolations = 20

// schemaURL names the in-memory resource a tool's schema is compiled from.
const schemaURL = "synaps-tool:///input.json"

// Schema is a compiled tool input schema. A Schema built from an empty or
// null schema accepts any JSON object.
type Schema struct {
	tool string
	sch  *jsonschema.Schema // nil: no constraints beyond "a JSON object"
}

// CompileSchema compiles a tool's input schema. Schemas without "$schema"
// are read as draft 2020-12. External references ($ref to a file or URL) are
// refused: a tool schema must be self-contained. The error names the tool
// and the problem.
func CompileSchema(toolName string, schema json.RawMessage) (*Schema, error) {
	s := &Schema{tool: toolName}
	raw := bytes.TrimSpace(schema)
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("tool %q: input schema is not valid JSON: %v", toolName, err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("tool %q: input schema must be a JSON object, got %s", toolName, jsonType(doc))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{}) // no file or network access
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("tool %q: invalid input schema: %v", toolName, err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("tool %q: invalid input schema: %v", toolName, err)
	}
	s.sch = sch
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
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
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
	if s.sch == nil {
		return nil
	}
	err := s.sch.Validate(doc)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return &InputError{Tool: name, Violations: []Violation{{Message: err.Error()}}}
	}
	var vs []Violation
	collect(verr, &vs)
	if len(vs) == 0 { // cannot happen, but never report "invalid" with no reason
		vs = []Violation{{Message: verr.Error()}}
	}
	slices.SortStableFunc(vs, func(a, b Violation) int {
		if c := strings.Compare(a.Location, b.Location); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	vs = slices.Compact(vs)
	return &InputError{Tool: name, Violations: vs}
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

// collect flattens a validation error tree into leaf violations, rewriting
// the common kinds into messages that point at the offending property.
func collect(e *jsonschema.ValidationError, out *[]Violation) {
	loc := pointer(e.InstanceLocation)
	add := func(loc, msg string) { *out = append(*out, Violation{Location: loc, Message: msg}) }
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		if len(e.Causes) == 0 {
			add(loc, e.ErrorKind.LocalizedString(printer))
		}
		for _, c := range e.Causes {
			collect(c, out)
		}
	case *kind.Required:
		for _, p := range k.Missing {
			add(loc+"/"+escapeToken(p), "missing required property")
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(loc+"/"+escapeToken(p), "unknown property (the schema does not allow it)")
		}
	case *kind.Type:
		add(loc, fmt.Sprintf("expected type %s, got %s", strings.Join(k.Want, " or "), k.Got))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = display(w)
		}
		add(loc, fmt.Sprintf("must be one of %s; got %s", strings.Join(want, ", "), display(k.Got)))
	case *kind.Const:
		add(loc, fmt.Sprintf("must be %s; got %s", display(k.Want), display(k.Got)))
	case *kind.AnyOf, *kind.OneOf:
		if len(e.Causes) == 0 { // oneOf matched more than one alternative
			add(loc, e.ErrorKind.LocalizedString(printer))
			return
		}
		alts := make([]string, 0, len(e.Causes))
		for i, c := range e.Causes {
			var sub []Violation
			collect(c, &sub)
			parts := make([]string, len(sub))
			for j, v := range sub {
				if v.Location == loc { // the alternative's own location is implied
					v.Location = ""
				}
				parts[j] = v.String()
			}
			alts = append(alts, fmt.Sprintf("[%d: %s]", i+1, strings.Join(parts, ", ")))
		}
		add(loc, "matches none of the allowed alternatives: "+strings.Join(alts, " "))
	default:
		add(loc, e.ErrorKind.LocalizedString(printer))
		for _, c := range e.Causes {
			collect(c, out)
		}
	}
}

// printer formats the library's messages (its kinds need a real printer).
var printer = message.NewPrinter(language.English)

func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
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
