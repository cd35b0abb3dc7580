package jsonrpc

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"
)

// hookEvent is a typical before_tool_call round trip payload.
var hookEvent = []byte(`{"jsonrpc":"2.0","id":12345,"method":"hook.handle","params":{"kind":"before_tool_call","hook":"before_tool_call","tool_name":"bash","tool_runtime_name":"bash","tool_input":{"command":"echo hi"},"tool_output":null,"message":null,"session_id":"s-1","transcript":null,"data":null}}`)

func BenchmarkWriteFrame(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(hookEvent)))
	for b.Loop() {
		if err := WriteFrame(io.Discard, hookEvent); err != nil {
			b.Fatal(err)
		}
	}
}

// loopReader replays data forever.
type loopReader struct {
	data []byte
	off  int
}

func (l *loopReader) Read(p []byte) (int, error) {
	if l.off == len(l.data) {
		l.off = 0
	}
	n := copy(p, l.data[l.off:])
	l.off += n
	return n, nil
}

func BenchmarkReadFrame(b *testing.B) {
	var frames []byte
	for range 64 {
		frames = appendHeader(frames, len(hookEvent))
		frames = append(frames, hookEvent...)
	}
	fr := NewFrameReader(&loopReader{data: frames}, 0, nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(frames) / 64))
	for b.Loop() {
		if _, err := fr.ReadFrame(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConnRoundTrip is one hook call to an in-process peer over OS
// pipes: the runtime's hot path minus the child process.
func BenchmarkConnRoundTrip(b *testing.B) {
	cr, sw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	sr, cw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	result := json.RawMessage(`{"action":"continue"}`)
	handler := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		return result, nil
	}
	server := NewConn(sr, sw, Options{Handler: handler})
	client := NewConn(cr, cw, Options{})
	defer func() {
		for _, c := range []*Conn{client, server} {
			c.Close()
			<-c.Done()
		}
	}()
	var req struct{ Params json.RawMessage }
	if err := json.Unmarshal(hookEvent, &req); err != nil {
		b.Fatal(err)
	}
	// Real calls carry a deadline, which arms the interruptible write.
	deadline, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	for _, bc := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"deadline", deadline}} {
		ctx := bc.ctx
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := client.Call(ctx, "hook.handle", req.Params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
