package session

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// A deferred record keeps its calls waiting only while the conversation
// ends with the message whose calls it names, and only when every other
// call of it has its saved result.
func TestDeferredOf(t *testing.T) {
	use := func(id string) llm.Block { return llm.Block{Type: llm.BlockToolUse, ID: id, Name: "bash"} }
	res := func(id string) llm.Block { return llm.Block{Type: llm.BlockToolResult, ToolUseID: id, Content: "ok"} }
	asked := llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{use("a"), use("b")}}
	rec := func(ids []string, results ...llm.Block) *Record {
		return &Record{Type: TypeDeferred, Deferred: ids, Message: &llm.Message{Role: llm.RoleUser, Content: results}}
	}
	for _, tc := range []struct {
		name string
		data Data
		want *Deferred
	}{
		{"a waits, b ran", Data{Messages: []llm.Message{asked}, Deferred: rec([]string{"a"}, res("b"))},
			&Deferred{Calls: []llm.Block{use("a")}, Results: []llm.Block{res("b")}}},
		{"both wait", Data{Messages: []llm.Message{asked}, Deferred: rec([]string{"a", "b"})},
			&Deferred{Calls: []llm.Block{use("a"), use("b")}}},
		{"b neither ran nor waits", Data{Messages: []llm.Message{asked}, Deferred: rec([]string{"a"})}, nil},
		{"answered since", Data{Messages: []llm.Message{asked, {Role: llm.RoleUser, Content: []llm.Block{res("a"), res("b")}}}, Deferred: rec([]string{"a"}, res("b"))}, nil},
		{"no record", Data{Messages: []llm.Message{asked}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, deferredOf(&tc.data)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
