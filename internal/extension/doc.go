// Package extension runs synaps's extensions: it discovers plugins
// (discover.go, manifest.go), spawns one supervised process per extension
// (extension.go, process.go), registers their tools and providers, and
// dispatches hook events to them (dispatch.go).
//
// The hook chain keeps a few rules, documented for authors in
// docs/extensions/hooks.md and README.md ("Failure policy"):
//
//   - Handlers of a hook that can act run one after another in plugin-id
//     order; observation hooks run concurrently and cannot change anything.
//   - block ends the chain. The input that runs is an input every matching
//     handler judged: after a modify, handlers that judged an older input
//     are asked again (at most MaxChainPasses passes; a loop is blocked).
//   - A fault skips the handler (fail-open) unless its failure_policy is
//     closed, in which case the tool call is blocked or its output
//     withheld. A fail-closed plugin that never started, or whose manifest
//     did not load, still guards (brokenguard.go).
//   - A fault caused by the input itself — an event beyond the send bounds
//     (sendbound.go), or a request that crashed a proven extension twice —
//     blocks before_tool_call whatever the policy: an input a guard cannot
//     judge does not run.
package extension
