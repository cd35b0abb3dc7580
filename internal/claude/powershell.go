package claude

import (
	"os/exec"
)

// A command hook with `shell: "powershell"` runs under pwsh (PowerShell
// 7). Where pwsh is not installed — most Linux machines — Claude Code's
// hooks files written for Windows users would fail on every event, each
// time with the same error; synaps says once which hook it skips and why,
// and runs the rest.

// lookPwsh finds pwsh on PATH; a variable so that tests can say it is
// absent or present whatever the machine has.
var lookPwsh = func() error {
	_, err := exec.LookPath("pwsh")
	return err
}

// pwshMissing reports whether h is a powershell hook that cannot run
// here; when warn is set, the first time for each hook it tells the user
// it is skipped.
func (l *Link) pwshMissing(h Handler, warn bool) bool {
	if h.Type != "command" || h.Shell != "powershell" || len(h.Args) > 0 {
		return false
	}
	if lookPwsh() == nil {
		return false
	}
	if !warn {
		return true
	}
	name := h.ID
	if name == "" {
		name = h.at
	}
	l.onceMu.Lock()
	if l.pwshWarned == nil {
		l.pwshWarned = map[string]bool{}
	}
	first := !l.pwshWarned[name]
	l.pwshWarned[name] = true
	l.onceMu.Unlock()
	if first {
		l.notify("hook " + name + " (" + clip(h.Command, 80) + `) has shell "powershell" and pwsh is not on PATH: it is skipped this session; install PowerShell 7 (pwsh) to run it`)
	}
	return true
}

// NotRunWhy says why handler h is skipped on this machine ("" when it
// runs): a listing (synaps hooks) shows it as the session skips it.
func NotRunWhy(h Handler) string {
	if h.Type != "command" || h.Shell != "powershell" || len(h.Args) > 0 || lookPwsh() == nil {
		return ""
	}
	return `its shell is "powershell" and pwsh is not on PATH: install PowerShell 7 (pwsh) to run it`
}
