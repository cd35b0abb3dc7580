package anthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/internal/llmtest"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// BenchmarkAnthropicStream parses a recorded 200-event stream (152 text
// deltas, a tool call in 41 fragments) from memory: the client's own cost
// per turn, without the network.
func BenchmarkAnthropicStream(b *testing.B) {
	data := llmtest.Fixture(b, "long.sse")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var events int
	for b.Loop() {
		s := newStream(func(llm.Event) { events++ })
		if err := s.read(sse.NewReader(strings.NewReader(data)), func(err error) error { return err }); err != nil {
			b.Fatal(err)
		}
		if resp := s.response(); len(resp.Message.Content) != 2 {
			b.Fatalf("got %d blocks", len(resp.Message.Content))
		}
	}
}

// conversation is a session with calls earlier tool calls, each a bash
// call with a 2 KB result, after a first user message.
func conversation(calls int) []llm.Message {
	out := strings.Repeat("line of a tool's output that the model reads\n", 45)
	msgs := []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "fix the tests"}}}}
	for i := 0; i < calls; i++ {
		id := fmt.Sprintf("toolu_%06d", i)
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{
				{Type: llm.BlockText, Text: "Looking at the next file."},
				{Type: llm.BlockToolUse, ID: id, Name: "bash", Input: json.RawMessage(`{"command":"go test ./..."}`)}}},
			llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: id, Content: out}}})
	}
	return msgs
}

var benchTools = []llm.ToolDef{
	{Name: "bash", Description: "Run a command", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
	{Name: "read", Description: "Read a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
}

// BenchmarkRequestBody is the cost of the request body for one more tool
// call (an assistant tool_use and its result) after calls earlier ones:
// the body written out (to io.Discard, as to a connection). With the
// session's Prefix the earlier calls were encoded by earlier requests and
// only the new call is, so the cost should not depend on calls; without
// one (prefix=none) every message is encoded again, as synaps did before
// issue 21.
//
// With the Prefix, each op adds the next call to a session that grows
// from calls to calls+window and is then put back as it was: so the
// kept encoding's growth (a new chunk now and then) is paid as often as
// in a real session, neither at every op nor never.
func BenchmarkRequestBody(b *testing.B) {
	const window = 100
	for _, calls := range []int{10, 100, 1000, 5000} {
		msgs := conversation(calls + window)
		at := func(calls int) []llm.Message { return msgs[:1+2*calls] }
		for _, kept := range []bool{true, false} {
			name := fmt.Sprintf("calls=%d/prefix=kept", calls)
			if !kept {
				name = fmt.Sprintf("calls=%d/prefix=none", calls)
			}
			b.Run(name, func(b *testing.B) {
				req := &llm.Request{Model: "claude-test", System: "You are synaps.", Tools: benchTools, Messages: at(calls)}
				var saved llm.Prefix
				if kept {
					req.Prefix = &llm.Prefix{}
					body(req) // the earlier requests of the session
					saved = *req.Prefix
				}
				req.Messages = at(calls + 1)
				b.ReportAllocs()
				added := 0
				for b.Loop() {
					if kept {
						if added == window {
							*req.Prefix, added = saved, 0 // the session as it was
						}
						added++
						req.Messages = at(calls + added)
					}
					for _, p := range body(req) {
						io.Discard.Write(p)
					}
				}
			})
		}
	}
}
