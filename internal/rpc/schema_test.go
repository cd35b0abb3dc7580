package rpc

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// docs/rpc.schema.json is held to what rpc speaks: every frame the tests
// send (but the bad ones) and every frame they read is checked against it.
var (
	schemaOnce                 sync.Once
	commandSchema, eventSchema *jsonschema.Schema
	schemaErr                  error
)

func schemas(t *testing.T) (cmd, ev *jsonschema.Schema) {
	t.Helper()
	schemaOnce.Do(func() {
		raw, err := os.ReadFile("../../docs/rpc.schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.UseLoader(jsonschema.SchemeURLLoader{})
		if schemaErr = c.AddResource("rpc.schema.json", doc); schemaErr != nil {
			return
		}
		if commandSchema, schemaErr = c.Compile("rpc.schema.json#/$defs/command"); schemaErr != nil {
			return
		}
		eventSchema, schemaErr = c.Compile("rpc.schema.json#/$defs/event")
	})
	if schemaErr != nil {
		t.Fatalf("docs/rpc.schema.json: %v", schemaErr)
	}
	return commandSchema, eventSchema
}

// conforms fails the test when frame does not match sch.
func conforms(t *testing.T, sch *jsonschema.Schema, what string, frame []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(frame))
	if err != nil {
		t.Errorf("%s is not JSON: %v", what, err)
		return
	}
	if err := sch.Validate(v); err != nil {
		var short bytes.Buffer
		json.Compact(&short, frame)
		s := short.String()
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		t.Errorf("%s does not match docs/rpc.schema.json: %v\n%s", what, err, s)
	}
}
