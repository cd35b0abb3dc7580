package llm

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPrefixSession keeps the encoding of a whole session of calls
// tool calls (an assistant message and a ≈ 2 KB result each), one request
// at a time as the agent does: Encode the new messages, then take the
// span the request sends. One op is the whole session, so B/op is all
// the memory the kept encoding took on the way: the session's size once
// when full chunks are never copied, about five times it when one slice
// grew by append's quarter steps (before issue 37).
func BenchmarkPrefixSession(b *testing.B) {
	for _, calls := range []int{100, 1500} {
		b.Run(fmt.Sprintf("calls=%d", calls), func(b *testing.B) {
			result := strings.Repeat("line of a small file that the model reads\n", 48)
			msgs := make([]Message, 0, 2*calls)
			for i := range calls {
				msgs = append(msgs,
					Message{Role: RoleAssistant, Content: []Block{{Type: BlockToolUse, ID: fmt.Sprintf("toolu_%06d", i), Name: "read", Input: []byte(`{"path":"f.txt"}`)}}},
					Message{Role: RoleUser, Content: []Block{{Type: BlockToolResult, ToolUseID: fmt.Sprintf("toolu_%06d", i), Content: result}}})
			}
			enc := func(dst []byte, m *Message) []byte { // a stand-in for JSON
				b := &m.Content[0]
				dst = append(append(append(dst, `{"role":"`...), m.Role...), `","content":[{"type":"`...)
				dst = append(append(append(dst, b.Type...), `","id":"`...), b.ID+b.ToolUseID...)
				return append(append(append(dst, `","text":"`...), b.Content...), `"}]}`...)
			}
			b.ReportAllocs()
			for b.Loop() {
				var p Prefix
				sent := 0
				for n := 2; n <= len(msgs); n += 2 {
					p.Encode("f", msgs, n, enc)
					for _, part := range p.Span(0, n) {
						sent += len(part)
					}
				}
				if sent == 0 {
					b.Fatal("nothing sent")
				}
			}
		})
	}
}
