package mcp

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkToolCall is one MCP tool call round trip through synaps's
// adapter: the registry's tool, the go-sdk client, newline-delimited JSON
// over pipes to the Go test server (this test binary re-run) and back,
// and the result mapped for the model.
func BenchmarkToolCall(b *testing.B) {
	_, reg := start(b, Options{}, testServer(b, "t", "ok", nil))
	tl, _, ok := reg.Lookup("mcp__t__echo")
	if !ok {
		b.Fatal("no echo tool")
	}
	input := json.RawMessage(`{"text":"hi"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := tl.Run(ctx, input)
		if err != nil || res.Output != "echo: hi" {
			b.Fatalf("%+v %v", res, err)
		}
	}
}
