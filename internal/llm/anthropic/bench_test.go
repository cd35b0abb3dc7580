package anthropic

import (
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
