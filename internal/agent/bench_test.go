package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/llm/script"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
)

// noop is a tool that does nothing, so the benchmark measures the loop.
type noop struct{}

func (noop) Spec() tool.Spec {
	return tool.Spec{RuntimeName: "noop", Description: "does nothing", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}}}`)}
}
func (noop) Run(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Result{Output: "done"}, nil
}

// benchmarkToolTurn measures one user message that makes one tool call and
// then ends: two script-model turns, hooks, validation, the tool, session
// writes and fsync. hooks is the number of Go extensions subscribed to
// before_tool_call and after_tool_call.
func benchmarkToolTurn(b *testing.B, hooks int) {
	base := b.TempDir()
	for i := 0; i < hooks; i++ {
		exttest.Plugin(b, base, fmt.Sprintf("g%d", i), map[string]any{
			"permissions": []string{"tools.intercept"},
			"hooks":       []map[string]any{{"hook": "before_tool_call"}, {"hook": "after_tool_call"}},
		}, exttest.Spec{})
	}
	reg := tool.NewRegistry()
	reg.Add(noop{})
	host := extension.NewHost(extension.Options{BaseDir: base, Registry: reg})
	if err := host.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer host.Shutdown()
	var sb strings.Builder
	for i := 0; i < b.N; i++ {
		sb.WriteString(`{"tool_calls":[{"name":"noop","input":{"x":1}}]}` + "\n" + `{"text":"done"}` + "\n")
	}
	sp, err := script.Parse("bench.jsonl", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	sess, err := session.Create(base, "script", base)
	if err != nil {
		b.Fatal(err)
	}
	a := New(Config{Provider: sp, Model: "script", Tools: reg, Hooks: host, Session: sess})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.Send(ctx, "go"); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	a.End(ctx)
}

func BenchmarkToolTurnNoHooks(b *testing.B)   { benchmarkToolTurn(b, 0) }
func BenchmarkToolTurnOneHook(b *testing.B)   { benchmarkToolTurn(b, 1) }
func BenchmarkToolTurnFiveHooks(b *testing.B) { benchmarkToolTurn(b, 5) }

// benchmarkSubagentTurn measures one user message with one tool round:
// with subagent, the model starts a subagent whose one request answers
// (three script-model requests); without, it calls the noop tool (two).
// The difference is what a subagent round trip adds beyond its model
// call: the child loop, its registry, its records in the session file (a
// subagent record and two messages), its events — and one script-model
// request. The session is on /dev/shm when there is one, so that the
// fsync at the turn's end (one in each) does not drown it in noise.
func benchmarkSubagentTurn(b *testing.B, subagent bool) {
	base := b.TempDir()
	if shm, err := os.MkdirTemp("/dev/shm", "synaps-bench"); err == nil {
		base = shm
		defer os.RemoveAll(shm)
	}
	reg := tool.NewRegistry()
	reg.Add(noop{})
	subs := &Subagents{}
	reg.Add(subs.Tool())
	var sb strings.Builder
	for i := 0; i < b.N; i++ {
		if subagent {
			sb.WriteString(`{"tool_calls":[{"name":"agent","input":{"description":"d","prompt":"p"}}]}` + "\n" + `{"text":"child done"}` + "\n")
		} else {
			sb.WriteString(`{"tool_calls":[{"name":"noop","input":{"x":1}}]}` + "\n")
		}
		sb.WriteString(`{"text":"done"}` + "\n")
	}
	sp, err := script.Parse("bench.jsonl", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	sess, err := session.Create(base, "script", base)
	if err != nil {
		b.Fatal(err)
	}
	a := New(Config{Provider: sp, Model: "script", Tools: reg, Session: sess, Subagents: subs})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.Send(ctx, "go"); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	a.End(ctx)
}

func BenchmarkSubagentTurn(b *testing.B)     { benchmarkSubagentTurn(b, true) }
func BenchmarkSubagentTurnNoop(b *testing.B) { benchmarkSubagentTurn(b, false) }
