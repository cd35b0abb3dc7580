package claude

import (
	"github.com/synaps-cli/synaps/internal/hook"
)

// claudeUpdate is one entry of a PermissionRequest hook's
// updatedPermissions, as Claude Code's schema has it:
// {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent":
// "npm test"}], "behavior": "allow", "destination": "session"}, or
// setMode's "mode", or the directory updates' "directories".
type claudeUpdate struct {
	Type  string `json:"type"`
	Rules []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent"`
	} `json:"rules"`
	Behavior    string   `json:"behavior"`
	Mode        string   `json:"mode"`
	Directories []string `json:"directories"`
	Destination string   `json:"destination"`
}

// update is u in synaps's terms: the rules written in permission-rule
// syntax (Bash(npm test)), which synaps's rules read as Claude's.
func (u claudeUpdate) update() hook.PermissionUpdate {
	out := hook.PermissionUpdate{Type: u.Type, Behavior: u.Behavior, Mode: u.Mode, Directories: u.Directories, Destination: u.Destination}
	for _, r := range u.Rules {
		text := r.ToolName
		if r.RuleContent != "" {
			text += "(" + r.RuleContent + ")"
		}
		out.Rules = append(out.Rules, text)
	}
	return out
}
