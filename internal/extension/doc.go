// Package extension runs extension processes: for each spawnable plugin
// (internal/plugin) one supervised process — spawned with the scrubbed
// environment (environ.go) in its own process group (process.go),
// initialized (initialize.go), called with deadlines and one retry after a
// crash (call.go), restarted with backoff and failed after MaxRestarts
// (supervise.go), its stderr kept in a rotating log (logsink.go), stopped
// by the documented sequence (process.go). An Extension implements
// hook.Link (link.go), and its tools and providers implement tool.Tool and
// llm.Provider (toolcall.go, provider.go).
//
// The Host (host.go) owns the running set: it discovers plugins, starts
// their extensions in parallel, registers their tools, builds the hook
// chain's table from their subscriptions, and reloads and shuts them down.
// It lives here rather than in a package of its own because everything it
// does reaches into an Extension's unexported state (its subscriptions,
// whether it initialized, its stop sequence); split out, that state would
// become API with one caller.
//
// This package must not know the chain's rules — order, block wins,
// re-judging after a modify, confirms, failure policy are internal/hook's;
// a link only answers and reports faults. What only a process can tell,
// it tells through the Link methods:
//
//   - A fail-closed plugin that never started, or whose manifest did not
//     load, still guards (link.go's brokenLink, plugin/brokenguard.go).
//   - A fault caused by the input itself — an event beyond the send bounds
//     (sendbound.go), or a request that crashed a proven extension twice —
//     is an input fault (link.InputFault), which the chain blocks whatever
//     the policy.
//
// Manifest parsing and discovery are internal/plugin's; the author
// conformance harness, internal/conformance, uses only StartChild and the
// exported decoders from here.
package extension
