package extension

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/tool"
)

// A tool declared "read_only": true (or with MCP's
// annotations.readOnlyHint) reaches the registry as read-only, so the
// permission modes run it and a turn may run its calls side by side; an
// undeclared one may change things.
func TestToolReadOnlyDeclaration(t *testing.T) {
	base := t.TempDir()
	toolPlugin(t, base, "ro", fakeSpec{Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[
		{"name":"look","description":"a lookup","input_schema":{"type":"object"},"read_only":true},
		{"name":"hint","description":"an MCP-style lookup","input_schema":{"type":"object"},"annotations":{"readOnlyHint":true}},
		{"name":"send","description":"sends mail","input_schema":{"type":"object"}}]}}`)})
	reg := tool.NewRegistry()
	startHost(t, base, func(o *Options) { o.Registry = reg })
	got := map[string]bool{}
	for _, s := range reg.Specs() {
		got[s.RuntimeName] = s.ReadOnly
	}
	want := map[string]bool{"ro:look": true, "ro:hint": true, "ro:send": false}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadOnly by tool (-want +got):\n%s", d)
	}
}
