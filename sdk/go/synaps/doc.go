// Package synaps is the Go SDK for synaps extensions: a program that
// registers tools and hooks and serves them over stdin/stdout, speaking
// JSON-RPC 2.0 with Content-Length framing. It has no dependencies beyond
// the standard library and imports nothing else from synaps.
//
// It lives in synaps's own module (github.com/synaps-cli/synaps, Go
// 1.26): an extension in another module depends on that module, and until
// it is published on a module proxy, points at a checkout with
// `go mod edit -replace github.com/synaps-cli/synaps=/path/to/synaps`
// (or copies this directory, which is a package with no imports but the
// standard library's).
//
// A complete extension:
//
//	func main() {
//		ext := synaps.New("bash-guard", "0.1.0")
//		ext.Hook(synaps.BeforeToolCall, func(ctx context.Context, ev *synaps.Event) synaps.Result {
//			if ev.ToolName == "bash" && strings.Contains(string(ev.ToolInput), "rm -rf") {
//				return synaps.Block("rm -rf is not allowed here")
//			}
//			return synaps.Continue()
//		})
//		if err := ext.Run(); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// Its manifest, .synaps-plugin/plugin.json, starts the compiled program and
// declares the permissions the extension uses ("hooks.before_tool_call"
// here, "tools.register" for tools).
//
// Requests are served concurrently, so a slow tool does not hold up a
// hook; handlers must be safe to run at the same time. Logf writes to
// stderr, which synaps keeps in the extension's log. Run returns when
// synaps sends shutdown or closes stdin.
package synaps
