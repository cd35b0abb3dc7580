// Package hook owns the lifecycle events the agent reports, the decisions
// hooks reach and the chain that reaches them: ordered links, their
// subscriptions and matchers, the chain rules, the per-link deadline and
// the failure policy.
//
// The chain keeps a few rules, documented for authors in
// docs/extensions/hooks.md and README.md ("Failure policy"):
//
//   - Links of a hook that can act run one after another in id (plugin-id)
//     order; observation hooks run concurrently and cannot change
//     anything.
//   - block ends the chain. The input that runs is an input every matching
//     link judged: after a modify, links that judged an older input are
//     asked again (at most MaxChainPasses passes; a loop is blocked).
//   - Confirms are collected and the user is asked once, after the chain,
//     if nothing blocked; injects are collected in chain order.
//   - A fault skips the link (fail-open) unless its Entry is FailClosed,
//     in which case the tool call is blocked or its output withheld.
//   - A fault caused by the input itself (Link.InputFault) blocks
//     before_tool_call whatever the policy: an input a guard cannot judge
//     does not run.
//
// It must not know what a link is: no processes, no JSON-RPC, no plugin
// directories. The agent depends on this package and never on a link's
// implementation (internal/extension is one; a Claude command hook will be
// another). It imports internal/contract and the standard library only.
package hook
