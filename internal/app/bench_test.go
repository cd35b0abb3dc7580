package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// BenchmarkStartToFirstRequest measures what a run costs before the
// model answers: app.Open (config, built-in tools, skills, every
// extension spawned, the session file) and, for "first-request", the
// first model request (a one-turn script). "wait" is -p and chat: Open
// waits for every extension. "background" is the terminal UI
// (Options.Background): "open" is when it takes input, and the first
// request waits only for extensions that may change it — these are guards
// of tool calls, so none. Shutting down is not timed. Target
// (architecture.md): ≤ 150 ms with 10 extensions.
func BenchmarkStartToFirstRequest(b *testing.B) {
	for _, what := range []string{"open", "first-request"} {
		for _, mode := range []string{"wait", "background"} {
			for _, n := range []int{0, 1, 4, 10, 16} {
				b.Run(fmt.Sprintf("%s/%s/extensions=%d", what, mode, n), func(b *testing.B) {
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
						a, err := Open(ctx, Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "bench", Background: mode == "background"})
						if err != nil {
							b.Fatal(err)
						}
						if what == "first-request" {
							if err := a.Agent.Send(ctx, "hi"); err != nil {
								b.Fatal(err)
							}
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
	}
}

// BenchmarkFirstRequestSlowGuards: four guards of tool calls that each
// take a second to initialise (InitMode "slow": waiting, not computing,
// as an extension that loads a model or checks a service does). -p and
// chat ("wait") wait for them; the terminal UI ("background") sends the
// first request at once, and a tool call would wait for them.
func BenchmarkFirstRequestSlowGuards(b *testing.B) {
	for _, mode := range []string{"wait", "background"} {
		b.Run(mode, func(b *testing.B) {
			base, work := b.TempDir(), b.TempDir()
			for i := 0; i < 4; i++ {
				exttest.Plugin(b, base, fmt.Sprintf("g%02d", i), map[string]any{
					"permissions": []string{"tools.intercept"},
					"hooks":       []map[string]any{{"hook": "before_tool_call"}},
				}, exttest.Spec{InitMode: "slow"})
			}
			writeFile(b, filepath.Join(work, "turns.jsonl"), `{"text":"hi"}`+"\n")
			ctx := context.Background()
			for b.Loop() {
				a, err := Open(ctx, Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "bench", Background: mode == "background"})
				if err != nil {
					b.Fatal(err)
				}
				if err := a.Agent.Send(ctx, "hi"); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				a.Close(ctx)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkStartWithMCP is the start-up cost MCP servers add. "open" is
// app.Open, after which the terminal UI takes the first prompt;
// "first-request" adds one model request (a script), as a headless run
// that did not wait would. Servers connect in the background, so 5
// configured servers should add about nothing to "open"; whatever
// "first-request" adds is the machine running five starting processes
// beside synaps. Each server is this test binary re-run as the Go MCP test
// server; waiting for them and closing are not timed.
func BenchmarkStartWithMCP(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"open", "first-request"} {
		for _, n := range []int{0, 5} {
			b.Run(fmt.Sprintf("%s/servers=%d", mode, n), func(b *testing.B) {
				base, work := b.TempDir(), b.TempDir()
				servers := map[string]any{}
				for i := 0; i < n; i++ {
					servers[fmt.Sprintf("s%d", i)] = map[string]any{"command": exe, "env": map[string]string{mcptest.Env: "ok"}}
				}
				data, _ := json.Marshal(map[string]any{"mcpServers": servers})
				writeFile(b, filepath.Join(base, "mcp.json"), string(data))
				writeFile(b, filepath.Join(work, "turns.jsonl"), `{"text":"hi"}`+"\n")
				ctx := context.Background()
				for b.Loop() {
					a, err := Open(ctx, Options{BaseDir: base, WorkDir: work, Model: "script:turns.jsonl", Getenv: noEnv, Version: "bench", NoExtensions: true})
					if err != nil {
						b.Fatal(err)
					}
					if mode == "first-request" {
						if err := a.Agent.Send(ctx, "hi"); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					a.WaitMCP(ctx)
					if sts := a.MCPStatuses(); len(sts) != n || (n > 0 && sts[0].State != "ready") {
						b.Fatalf("servers: %+v", sts)
					}
					a.Close(ctx)
					b.StartTimer()
				}
			})
		}
	}
}

func writeFile(b *testing.B, path, content string) {
	b.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}
