package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
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

// BenchmarkCloseEverything is the end of a session's MCP part with the
// reference server over stdio: Manager.Close, the stop sequence with its
// 1 s steps (the acceptance asks for an exit under 1.5 s; the SDK's
// default steps of 5 s made it 5 s when a server ignores the end of its
// input). Starting is not timed.
func BenchmarkCloseEverything(b *testing.B) {
	bin := mcptest.Everything(b)
	for b.Loop() {
		b.StopTimer()
		m, _ := start(b, Options{}, Server{Name: "everything", Type: TransportStdio, Command: bin, Args: []string{"stdio"}})
		b.StartTimer()
		if err := m.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
