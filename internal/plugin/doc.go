// Package plugin owns a plugin directory and everything it may contain:
// discovery (the user's plugins dir, symlinked plugins, a trusted
// project's .synaps/plugins, the disabled list), trust of project dirs,
// plugin ids, and the manifest in both dialects (the authoring guide's
// entry_point form and SynapsCLI's command form), parsed one section at a
// time — meta (manifest_meta.go), launch (manifest_launch.go,
// entrypoint.go), hooks (subscription.go), permissions
// (manifest_permissions.go), config (manifest_config.go) — with every
// error a *ManifestError that names the file, the field and the fix.
// Parts (parts.go) lists what a plugin brings; later kinds of parts
// (commands, agents, Claude hooks, MCP servers) are added there.
//
// It reads files and nothing else: it must not start processes, speak
// JSON-RPC or know about the hook chain's rules (it produces
// hook.Subscription values, which the chain matches).
package plugin
