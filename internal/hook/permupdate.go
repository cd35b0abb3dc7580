package hook

// PermissionUpdate is a change to the session's permissions that a link
// asks for with its answer to on_permission_request: Claude Code's
// PermissionRequest updatedPermissions, which a hook gives with an
// allow so that the user is not asked again about the like. The agent
// applies it (internal/agent, permupdate.go); the chain only carries it.
type PermissionUpdate struct {
	// Type is Claude's: addRules, replaceRules, removeRules, setMode,
	// addDirectories, removeDirectories.
	Type string
	// Behavior is the rules' list: allow, deny or ask.
	Behavior string
	// Rules are the rules in permission-rule syntax ("Bash(npm test)").
	Rules []string
	// Mode is setMode's permission mode.
	Mode string
	// Directories are addDirectories' and removeDirectories'.
	Directories []string
	// Destination is where Claude Code keeps it: session, localSettings,
	// projectSettings, userSettings.
	Destination string
	// By is the link that asked (set by the chain).
	By string
}
