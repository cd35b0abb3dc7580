package acp

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// BenchmarkInflightWrite: what inflight adds to each message synaps
// writes to the editor — one streamed word (agent_message_chunk) and one
// tool result of 64 KiB — over writing it straight to the pipe.
func BenchmarkInflightWrite(b *testing.B) {
	chunk := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"20261203-182753-6399","update":{"content":{"text":" done.","type":"text"},"sessionUpdate":"agent_message_chunk"}}}` + "\n")
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
		"sessionId": "20261203-182753-6399", "update": map[string]any{"sessionUpdate": "tool_call_update", "status": "completed", "rawOutput": strings.Repeat("output line\n", 64<<10/12)}}})
	for _, tc := range []struct {
		name string
		msg  []byte
	}{{"chunk", chunk}, {"tool-output-64KiB", append(out, '\n')}} {
		b.Run(tc.name, func(b *testing.B) {
			f := newInflight(strings.NewReader(""), io.Discard)
			b.SetBytes(int64(len(tc.msg)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.Write(tc.msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
