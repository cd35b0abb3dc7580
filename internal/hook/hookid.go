package hook

// Stable ids of the hooks a user can see and turn off one by one
// (`synaps hooks`, config disabled_hooks). An id names where a hook comes
// from and which event it answers, never a path or a version, so a
// plugin update or a moved checkout keeps a user's choice.

import (
	"fmt"
	"strings"
)

// ExtensionHookID is the id of an extension's place in the chain of one
// synaps hook: "ext:policy-guard/before_tool_call". All of the
// extension's subscriptions to that hook go together; its other hooks
// and its tools are not affected.
func ExtensionHookID(pluginID, hookName string) string {
	return "ext:" + pluginID + "/" + hookName
}

// ClaudeHookID is the id of one Claude Code command hook: the n-th
// command (from 0, in file order across the event's matcher groups) of
// a Claude event in one source. source is "user", "project" or "local"
// for the settings files, "plugin:<id>" for a plugin's hooks:
// "claude:project/PreToolUse/0", "plugin:cc-guard/PreToolUse/1".
func ClaudeHookID(source, event string, n int) string {
	if id, ok := strings.CutPrefix(source, "plugin:"); ok {
		return fmt.Sprintf("plugin:%s/%s/%d", id, event, n)
	}
	return fmt.Sprintf("claude:%s/%s/%d", source, event, n)
}

// Disabled is a set of hook ids that are turned off (config
// disabled_hooks). The zero value disables nothing.
type Disabled map[string]bool

// NewDisabled makes the set of ids.
func NewDisabled(ids []string) Disabled {
	d := Disabled{}
	for _, id := range ids {
		d[id] = true
	}
	return d
}

// Has reports whether id is turned off.
func (d Disabled) Has(id string) bool { return d[id] }

// ClaudeFileID is the id of one source's Claude hooks of one event, the
// prefix of each of their ClaudeHookIDs: "claude:project/PreToolUse",
// "plugin:cc-guard/PreToolUse". required_guards takes it for them all.
func ClaudeFileID(source, event string) string {
	if id, ok := strings.CutPrefix(source, "plugin:"); ok {
		return "plugin:" + id + "/" + event
	}
	return "claude:" + source + "/" + event
}

// OwnerOf is the chain link a hook id belongs to — the plugin id, or
// "claude-project" (project and local settings files) and "claude-user"
// for the settings files' Claude hooks — as decisions name it:
// "policy-guard" of "ext:policy-guard/before_tool_call" and of
// "plugin:policy-guard/PreToolUse/0", "claude-project" of
// "claude:local/PreToolUse/1".
func OwnerOf(id string) string {
	owner, _, _ := strings.Cut(id, "/")
	kind, name, _ := strings.Cut(owner, ":")
	if kind == "claude" {
		switch name {
		case "project", "local":
			return "claude-project"
		case "user":
			return "claude-user"
		}
	}
	return name
}
