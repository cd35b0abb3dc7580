package app

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// BenchmarkStartToolsOnly: Open and one request (as -p does) with 0, 1,
// 4 and 16 tools-only extensions, each a fake extension process, with
// the initialize cache off ("cold": every extension is spawned and
// answers initialize before the request) and warm ("cached": none is
// spawned; each would start at its first tool call).
func BenchmarkStartToolsOnly(b *testing.B) {
	benchStart(b, []int{0, 1, 4, 16}, map[string]any{"permissions": []string{"tools.register"}},
		exttest.Spec{Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Says hello","input_schema":{"type":"object"}}]}}`)})
}

// BenchmarkStartToolGuards is BenchmarkStartToolsOnly with guards of
// bash calls (before_tool_call): a request that calls no tool starts
// none of them when they are cached.
func BenchmarkStartToolGuards(b *testing.B) {
	benchStart(b, []int{4, 16}, map[string]any{"permissions": []string{"tools.intercept"},
		"hooks": []map[string]any{{"hook": "before_tool_call", "tool": "bash"}}}, exttest.Spec{})
}

func benchStart(b *testing.B, counts []int, manifest map[string]any, spec exttest.Spec) {
	for _, cache := range []string{"cold", "cached"} {
		for _, n := range counts {
			b.Run(fmt.Sprintf("%s/extensions=%d", cache, n), func(b *testing.B) {
				base, work := b.TempDir(), b.TempDir()
				for i := 0; i < n; i++ {
					exttest.Plugin(b, base, fmt.Sprintf("t%02d", i), manifest, spec)
				}
				writeFile(b, filepath.Join(work, "turns.jsonl"), `{"text":"hi"}`+"\n")
				getenv := func(k string) string {
					if k == extension.InitCacheEnv && cache == "cold" {
						return "0"
					}
					return ""
				}
				ctx := context.Background()
				open := func() *App {
					a, err := Open(ctx, Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: getenv, Version: "bench"})
					if err != nil {
						b.Fatal(err)
					}
					return a
				}
				open().Close(ctx) // fills the cache when it is on
				b.ReportAllocs()
				for b.Loop() {
					a := open()
					if err := a.Agent.Send(ctx, "hi"); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					deferred := 0
					for _, st := range a.Statuses() {
						if st.Deferred {
							deferred++
						}
					}
					if want := map[string]int{"cold": 0, "cached": n}[cache]; deferred != want {
						b.Fatalf("%d of %d extensions deferred, want %d", deferred, n, want)
					}
					a.Close(ctx)
					b.StartTimer()
				}
			})
		}
	}
}
