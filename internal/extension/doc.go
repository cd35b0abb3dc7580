// Package extension runs synaps's extensions: it discovers plugins
// (discover.go, manifest.go), spawns one supervised process per extension
// (extension.go, process.go), registers their tools and providers, and
// answers hook events for them as hook.Link implementations (link.go).
//
// The hook chain itself — order, matchers, chain rules, deadline, failure
// policy — is internal/hook's. This package adds what only a process can
// say about a fault:
//
//   - A fail-closed plugin that never started, or whose manifest did not
//     load, still guards (brokenguard.go).
//   - A fault caused by the input itself — an event beyond the send bounds
//     (sendbound.go), or a request that crashed a proven extension twice —
//     is an input fault (link.InputFault), which the chain blocks whatever
//     the policy.
package extension
