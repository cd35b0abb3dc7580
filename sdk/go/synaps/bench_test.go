package synaps

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// hookFrame is a before_tool_call as synaps sends it: every key present,
// "context" repeating the non-null ones.
const hookFrame = `{"jsonrpc":"2.0","id":7,"method":"hook.handle","params":{"kind":"before_tool_call","hook":"before_tool_call","tool_name":"bash","tool_runtime_name":"bash","tool_input":{"command":"echo hi"},"tool_output":null,"message":null,"session_id":"20261203-180000-abcd","transcript":null,"data":null,"context":{"tool_name":"bash","tool_runtime_name":"bash","tool_input":{"command":"echo hi"},"session_id":"20261203-180000-abcd"}}}`

// BenchmarkServeHook is the SDK's own CPU for one hook call, the
// extension's side of a round trip without the pipes: read the frame,
// decode the event, run a guard that decodes the command, write the
// answer.
func BenchmarkServeHook(b *testing.B) {
	e := New("bench", "0.0.1")
	e.Hook(BeforeToolCall, func(_ context.Context, ev *Event) Result {
		var in struct{ Command string }
		_ = ev.Input(&in)
		if strings.Contains(in.Command, "rm -rf") {
			return Block("no")
		}
		return Continue()
	})
	one := frame([]byte(hookFrame))
	input := bytes.Repeat(one, b.N)
	b.ReportAllocs()
	b.SetBytes(int64(len(one)))
	b.ResetTimer()
	if err := e.Serve(context.Background(), bytes.NewReader(input), io.Discard); err != nil {
		b.Fatal(err)
	}
}
