package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// BenchmarkStartToFirstRequest measures what a headless run costs before
// the model answers: app.Open (config, built-in tools, skills, every
// extension spawned and initialised in parallel, the session file) and the
// first model request (a one-turn script). Shutting down is not timed.
// Target (architecture.md): ≤ 150 ms with 10 extensions.
func BenchmarkStartToFirstRequest(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(fmt.Sprintf("extensions=%d", n), func(b *testing.B) {
			base, work := b.TempDir(), b.TempDir()
			for i := 0; i < n; i++ {
				exttest.Plugin(b, base, fmt.Sprintf("g%02d", i), map[string]any{
					"permissions": []string{"tools.intercept"},
					"hooks":       []map[string]any{{"hook": "before_tool_call"}, {"hook": "after_tool_call"}},
				}, exttest.Spec{})
			}
			writeFile(b, filepath.Join(work, "turns.jsonl"), `{"text":"hi"}`+"\n")
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				a, err := Open(ctx, Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				if err := a.Agent.Send(ctx, "hi"); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if sts := a.Statuses(); len(sts) != n {
					b.Fatalf("%d plugins", len(sts))
				}
				a.Close(ctx)
				b.StartTimer()
			}
		})
	}
}

func writeFile(b *testing.B, path, content string) {
	b.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}
