package app

import (
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/sandbox"
)

// KeyAutoAllowSandboxed is the config key that lets the bash sandbox
// stand for the permission question (Claude Code's
// autoAllowBashIfSandboxed): on, a bash command that runs confined needs
// no question in default and acceptEdits modes.
const KeyAutoAllowSandboxed = "permissions.auto_allow_sandboxed"

// autoAllowSandboxed reads permissions.auto_allow_sandboxed from the
// user's config (a project cannot turn its own questions off) and, when
// it is on and the bash tool's commands will be confined (sandbox.bash on
// and the kernel confines files), tells the policy. sb is the bash tool's
// sandbox policy (nil: sandbox.bash = off). When the option cannot hold,
// a note says why and the questions stay.
func (a *App) autoAllowSandboxed(sb *sandbox.Policy) {
	if a.Permissions == nil || a.Config == nil {
		return
	}
	v, ok := a.Config.Get(KeyAutoAllowSandboxed)
	if !ok {
		return
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1":
	case "off", "false", "no", "0":
		return
	default:
		a.Notes = append(a.Notes, fmt.Sprintf("%s: %s = %q is neither true nor false, so bash commands are asked about; write `%s = true` or `%s = false`", a.Config.Path, KeyAutoAllowSandboxed, v, KeyAutoAllowSandboxed, KeyAutoAllowSandboxed))
		return
	}
	switch {
	case sb == nil:
		a.Notes = append(a.Notes, fmt.Sprintf("%s: %s is on but %s is off, so bash commands run unconfined and are asked about; set %s = on to confine them", a.Config.Path, KeyAutoAllowSandboxed, sandbox.KeyBash, sandbox.KeyBash))
	case sandbox.Detect().LandlockABI == 0:
		a.Notes = append(a.Notes, fmt.Sprintf("%s: %s is on but this kernel cannot confine files (no Landlock; see `synaps sandbox status`), so bash commands are asked about", a.Config.Path, KeyAutoAllowSandboxed))
	default:
		a.Permissions.SetSandboxed(true)
	}
}
