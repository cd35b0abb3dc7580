//go:build !linux

package sandbox

import "os/exec"

// Wrap confines nothing here: the sandbox is Linux's. It says so once per
// session, or, with p.Required, refuses.
func Wrap(cmd *exec.Cmd, p Policy, log func(string)) (release func(), err error) {
	if p.Required {
		return func() {}, &RefusedError{Name: p.Name, Missing: "a sandbox (synaps confines processes on Linux only)"}
	}
	warnOnce("unsupported", "processes are not confined on this system (Linux only); see `synaps sandbox status`")
	return func() {}, nil
}

// Start confines nothing here either (see Wrap); it starts cmd.
func Start(cmd *exec.Cmd, p Policy, log func(string)) (release func(), err error) {
	if release, err = Wrap(cmd, p, log); err != nil {
		return release, notStarted(cmd, err)
	}
	return release, cmd.Start()
}
