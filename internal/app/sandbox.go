package app

import (
	"os"

	"github.com/synaps-cli/synaps/internal/sandbox"
)

// openSandbox reads the sandbox settings (the synaps config, Claude
// Code's sandbox settings) once per session and returns the bash tool's
// policy, nil when sandbox.bash = off. Settings that cannot be used are
// notes.
func (a *App) openSandbox() *sandbox.Policy {
	getenv := a.opts.Getenv
	home := sandbox.Home(getenv)
	c := sandbox.ReadConfig(a.Config, a.WorkDir, home, a.projectTrusted())
	a.Notes = append(a.Notes, c.Warnings...)
	// --add-dir: the bash tool may write there as in the project.
	c.AllowWrite = append(c.AllowWrite, a.opts.AddDirs...)
	a.sandbox = c
	if !c.Bash {
		return nil
	}
	e := sandbox.Env{Project: a.WorkDir, Home: home, Temp: tempDir(getenv), Getenv: getenv}
	p := sandbox.BashPolicy(e, c)
	return &p
}

// tempDir is $TMPDIR as the session's environment says, else /tmp.
func tempDir(getenv func(string) string) string {
	if t := getenv("TMPDIR"); t != "" {
		return t
	}
	return os.TempDir()
}
