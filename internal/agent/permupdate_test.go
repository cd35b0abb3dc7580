package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
)

// applyPermissionUpdates applies addRules and setMode for the session,
// says each change, and refuses what a hook may not do.
func TestApplyPermissionUpdates(t *testing.T) {
	for _, tc := range []struct {
		name      string
		update    hook.PermissionUpdate
		wantNote  string
		wantRules permission.Rules
		wantMode  permission.Mode
	}{
		{"deny rule", hook.PermissionUpdate{Type: "addRules", Behavior: "deny", Rules: []string{"Bash(rm:*)"}, Destination: "session", By: "claude-project"},
			"claude-project added the deny rule Bash(rm:*) for the rest of this session", permission.Rules{Deny: []permission.Rule{{Tool: "Bash", Spec: "rm:*", Text: "Bash(rm:*)", Source: "hook claude-project"}}}, permission.Default},
		{"settings file destination", hook.PermissionUpdate{Type: "addRules", Behavior: "allow", Rules: []string{"Read"}, Destination: "localSettings", By: "g"},
			"g added the allow rule Read for the rest of this session (it asked for localSettings: synaps writes no settings file for a hook)", permission.Rules{Allow: []permission.Rule{{Tool: "Read", Text: "Read", Source: "hook g"}}}, permission.Default},
		{"bad behavior", hook.PermissionUpdate{Type: "addRules", Behavior: "maybe", Rules: []string{"Read"}, By: "g"},
			`g asked to add rules with behavior "maybe"; not applied (allow, ask or deny)`, permission.Rules{}, permission.Default},
		{"set mode", hook.PermissionUpdate{Type: "setMode", Mode: "acceptEdits", Destination: "session", By: "g"},
			"g set the permission mode to acceptEdits for the rest of this session", permission.Rules{}, permission.AcceptEdits},
		{"no bypass", hook.PermissionUpdate{Type: "setMode", Mode: "bypassPermissions", By: "g"},
			"g asked for permission mode bypassPermissions; not applied: a hook does not turn every question off", permission.Rules{}, permission.Default},
		{"other type", hook.PermissionUpdate{Type: "addDirectories", Directories: []string{"/tmp"}, By: "g"},
			`g asked for a permission update of type "addDirectories"; not applied: synaps applies addRules and setMode`, permission.Rules{}, permission.Default},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notes []string
			p := permission.New(permission.Config{Mode: permission.Default, WorkDir: t.TempDir()})
			a := New(Config{Permissions: p, OnEvent: func(ev Event) {
				if ev.Type == EventNotice {
					notes = append(notes, ev.Text)
				}
			}})
			a.applyPermissionUpdates([]hook.PermissionUpdate{tc.update})
			if diff := cmp.Diff([]string{tc.wantNote}, notes); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantRules, p.Rules(), cmpRules); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
			if p.Mode() != tc.wantMode {
				t.Errorf("mode %s, want %s", p.Mode(), tc.wantMode)
			}
		})
	}
}

// cmpRules compares rule lists, an empty one as none.
var cmpRules = cmp.Options{cmp.FilterValues(func(a, b []permission.Rule) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())}
