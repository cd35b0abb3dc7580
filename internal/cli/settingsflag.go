package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/permission"
)

// --settings FILE|JSON, as Claude Code's: further settings for this run,
// in the shape of .claude/settings.json. synaps reads what it has a
// meaning for — hooks, permissions (allow, ask, deny, defaultMode,
// additionalDirectories) and env — and names every other key it leaves
// unread on stderr, so none is dropped silently.

// settingsFile is the part of a Claude settings file --settings reads.
type settingsFile struct {
	Permissions *struct {
		Allow                 []string `json:"allow"`
		Ask                   []string `json:"ask"`
		Deny                  []string `json:"deny"`
		DefaultMode           string   `json:"defaultMode"`
		AdditionalDirectories []string `json:"additionalDirectories"`
	} `json:"permissions"`
	Env   map[string]string `json:"env"`
	Hooks json.RawMessage   `json:"hooks"`
}

// settingsRead are the top-level keys --settings reads.
var settingsRead = []string{"permissions", "env", "hooks", "$schema"}

// applySettings reads v (a file, or a JSON object when it starts with
// "{") into o; notes are the keys it did not read. env is set in this
// process, so the tools (through tool_env_allow like any variable),
// hooks and MCP servers see it, as Claude's settings env is.
func applySettings(v string, o *app.Options) (notes []string, err error) {
	name, data := v, []byte(v)
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		if data, err = os.ReadFile(v); err != nil {
			return nil, usageError{fmt.Errorf("--settings %s: %v (give a settings file or a JSON object such as {\"permissions\":{\"allow\":[\"Bash(git status:*)\"]}})", v, err)}
		}
	} else {
		name = "--settings JSON"
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, usageError{fmt.Errorf("--settings %s: not a JSON object: %v", name, err)}
	}
	var s settingsFile
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, usageError{fmt.Errorf("--settings %s: %v (permissions.allow, ask and deny are lists of rules, env an object of strings)", name, err)}
	}
	for k := range top {
		if !slices.Contains(settingsRead, k) {
			notes = append(notes, fmt.Sprintf("--settings %s: %q is not read by synaps (it reads hooks, permissions and env)", name, k))
		}
	}
	slices.Sort(notes)
	if p := s.Permissions; p != nil {
		for _, f := range []struct {
			key   string
			items []string
			into  *[]permission.Rule
		}{{"allow", p.Allow, &o.Allowed}, {"ask", p.Ask, &o.Ask}, {"deny", p.Deny, &o.Disallowed}} {
			for _, item := range f.items {
				rules, err := permission.ParseRules(item)
				if err != nil {
					return nil, usageError{fmt.Errorf("--settings %s: permissions.%s: %v", name, f.key, err)}
				}
				*f.into = append(*f.into, permission.Sourced(rules, "--settings")...)
			}
		}
		if p.DefaultMode != "" && o.PermissionMode == "" {
			m, err := permission.ParseMode(p.DefaultMode)
			if err != nil {
				return nil, usageError{fmt.Errorf("--settings %s: permissions.defaultMode: %v", name, err)}
			}
			o.PermissionMode = m
		}
		for _, d := range p.AdditionalDirectories {
			abs, err := filepath.Abs(d)
			if st, serr := os.Stat(abs); err != nil || serr != nil || !st.IsDir() {
				return nil, usageError{fmt.Errorf("--settings %s: permissions.additionalDirectories: %s is not an existing directory", name, d)}
			}
			o.AddDirs = append(o.AddDirs, abs)
		}
	}
	for k, val := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, usageError{fmt.Errorf("--settings %s: env: %q is not a variable name", name, k)}
		}
		os.Setenv(k, val)
	}
	if len(s.Hooks) > 0 && string(s.Hooks) != "null" {
		o.ClaudeSettings = append(o.ClaudeSettings, app.ClaudeSettings{File: name, Data: data})
	}
	return notes, nil
}
