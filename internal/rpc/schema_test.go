package rpc

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/synaps-cli/synaps/internal/tool"
)

// docs/rpc.schema.json is held to what rpc speaks: every frame the tests
// send (but the bad ones) and every frame they read is checked against it,
// with the validator tool inputs are checked with.
var (
	schemaOnce                 sync.Once
	commandSchema, eventSchema *tool.Schema
	schemaErr                  error
)

func schemas(t *testing.T) (cmd, ev *tool.Schema) {
	t.Helper()
	schemaOnce.Do(func() {
		raw, err := os.ReadFile("../../docs/rpc.schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		var doc map[string]json.RawMessage
		if schemaErr = json.Unmarshal(raw, &doc); schemaErr != nil {
			return
		}
		// One schema per direction: the document's $defs, entered at the
		// definition of a command or of an event.
		at := func(def string) (*tool.Schema, error) {
			wrapped, err := json.Marshal(map[string]json.RawMessage{
				"$ref":  json.RawMessage(`"#/$defs/` + def + `"`),
				"$defs": doc["$defs"],
			})
			if err != nil {
				return nil, err
			}
			return tool.CompileSchema("rpc.schema.json#/$defs/"+def, wrapped)
		}
		if commandSchema, schemaErr = at("command"); schemaErr != nil {
			return
		}
		eventSchema, schemaErr = at("event")
	})
	if schemaErr != nil {
		t.Fatalf("docs/rpc.schema.json: %v", schemaErr)
	}
	return commandSchema, eventSchema
}

// conforms fails the test when frame does not match sch.
func conforms(t *testing.T, sch *tool.Schema, what string, frame []byte) {
	t.Helper()
	if err := sch.Validate(frame); err != nil {
		var short bytes.Buffer
		json.Compact(&short, frame)
		s := short.String()
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		t.Errorf("%s does not match docs/rpc.schema.json: %v\n%s", what, err, s)
	}
}
