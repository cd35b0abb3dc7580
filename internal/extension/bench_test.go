package extension

import (
	"context"
	"encoding/json"
	"github.com/synaps-cli/synaps/internal/hook"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// Hot-path benchmarks. Targets (architecture.md): a hook round trip to a Go
// extension ≤ 30 µs, to the Python hello-ext ≤ 100 µs; a tool call through
// 5 chained hook extensions ≤ 200 µs of added overhead.

func benchGuard(b *testing.B, base, id string) {
	fakePlugin(b, base, id, map[string]any{
		"permissions": []string{"tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call"}, {"hook": "after_tool_call"}},
	}, fakeSpec{})
}

// benchBeforeToolCall times one before_tool_call, allowed, through the
// plugins under base, with the CPU each side spends (meterCPU).
func benchBeforeToolCall(b *testing.B, base string) {
	benchBeforeToolCallOn(b, startHost(b, base, nil))
}

// benchBeforeToolCallOn is benchBeforeToolCall on a started host.
func benchBeforeToolCallOn(b *testing.B, h *Host) {
	input := json.RawMessage(`{"command":"echo hi"}`)
	ctx := context.Background()
	b.ReportAllocs()
	cpu := meterCPU(b, h)
	for b.Loop() {
		if d := h.BeforeToolCall(ctx, bashSpec(), input, "s", nil); d.Blocked {
			b.Fatal(d.Reason)
		}
	}
	cpu.report(b)
}

// BenchmarkHookRoundTripGo: one before_tool_call to one Go extension.
func BenchmarkHookRoundTripGo(b *testing.B) {
	base := b.TempDir()
	benchGuard(b, base, "g")
	benchBeforeToolCall(b, base)
}

// BenchmarkHookRoundTripGoSDK: one before_tool_call to the bundled
// demo-guard, written with the Go SDK (sdk/go/synaps) as an author would,
// which decodes the event and judges the command.
func BenchmarkHookRoundTripGoSDK(b *testing.B) {
	base := b.TempDir()
	exttest.BundledPlugin(b, base, "guard", "demo-guard")
	benchBeforeToolCall(b, base)
}

// BenchmarkHookRoundTripPython: one before_tool_call to the guide's
// hello-ext, which reads its header one byte at a time as written.
func BenchmarkHookRoundTripPython(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 not installed")
	}
	base := b.TempDir()
	os.MkdirAll(filepath.Join(base, "plugins"), 0o755)
	copyDir(b, "../../examples/extensions/hello-ext", filepath.Join(base, "plugins", "hello-ext"))
	benchBeforeToolCall(b, base)
}

// BenchmarkToolCallFiveHooks: the hook overhead of one tool call — before
// and after hooks — through five chained Go extensions.
func BenchmarkToolCallFiveHooks(b *testing.B) {
	base := b.TempDir()
	for _, id := range []string{"g1", "g2", "g3", "g4", "g5"} {
		benchGuard(b, base, id)
	}
	h := startHost(b, base, nil)
	input := json.RawMessage(`{"command":"echo hi"}`)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := meterCPU(b, h)
	for b.Loop() {
		if d := h.BeforeToolCall(ctx, bashSpec(), input, "s", nil); d.Blocked {
			b.Fatal(d.Reason)
		}
		h.AfterToolCall(ctx, bashSpec(), input, "hi\n", false, "s")
	}
	cpu.report(b)
}

// BenchmarkToolCallFiveHooksReport: BenchmarkToolCallFiveHooks with the
// per-call report asked for, as every session call asks (coverage).
func BenchmarkToolCallFiveHooksReport(b *testing.B) {
	base := b.TempDir()
	for _, id := range []string{"g1", "g2", "g3", "g4", "g5"} {
		benchGuard(b, base, id)
	}
	h := startHost(b, base, nil)
	input := json.RawMessage(`{"command":"echo hi"}`)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := meterCPU(b, h)
	for b.Loop() {
		var r hook.Report
		ctx := hook.WithReport(context.Background(), &r)
		if d := h.BeforeToolCall(ctx, bashSpec(), input, "s", nil); d.Blocked || len(r.Links) != 5 {
			b.Fatal(d.Reason, r.Links)
		}
		h.AfterToolCall(context.Background(), bashSpec(), input, "hi\n", false, "s")
	}
	cpu.report(b)
}

// BenchmarkExtensionToolCall: one tool.call to a Go extension, result
// normalised.
func BenchmarkExtensionToolCall(b *testing.B) {
	base := b.TempDir()
	fakePlugin(b, base, "t", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{Init: json.RawMessage(toolInit)})
	h := startHost(b, base, nil)
	tl, _, _ := h.Registry().Lookup("t_t")
	ctx := context.Background()
	input := json.RawMessage(`{"x":1}`)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := meterCPU(b, h)
	for b.Loop() {
		if res, err := tl.Run(ctx, input); err != nil || res.IsError {
			b.Fatal(res, err)
		}
	}
	cpu.report(b)
}

// BenchmarkDispatchNoSubscribers: the cost of a hook nobody listens to.
func BenchmarkDispatchNoSubscribers(b *testing.B) {
	h := startHost(b, b.TempDir(), nil)
	input := json.RawMessage(`{"command":"echo hi"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		h.BeforeToolCall(ctx, bashSpec(), input, "s", nil)
	}
}
