package sandbox

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

func detect() Features {
	f := Features{Supported: true, LandlockABI: landlockABI(), Seccomp: seccompSupported()}
	exe, err := os.Executable()
	if err != nil {
		f.Reason = err.Error()
		return f
	}
	// The probe is synaps itself, exiting at once, started in new
	// mount and network namespaces as Wrap would start a helper.
	cmd := exec.Command(exe, probeArg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWNET}
	if os.Geteuid() != 0 {
		f.UserNS = true
		userNamespace(cmd.SysProcAttr)
	}
	if reason := probe(cmd); reason != "" {
		f.Reason = reason
		return f
	}
	f.MountNS, f.NetNS = true, true
	return f
}

// probe runs cmd, started in the namespaces to try, and says why they
// cannot be had ("" when they can). A kernel that refuses them fails the
// start (clone, or the child's setup before its exec): a probe that
// started ran in them, whatever became of it after. Only its own exit
// with an error status counts against them. A probe killed by a signal,
// or reaped by someone else (waitid: no child processes), was taken from
// us: synaps quitting while it ran — the lifeline kills and reaps every
// child left at its stop — which was said as "the kernel lacks mount
// namespaces … (cannot create namespaces: signal: killed)" after a
// terminal UI quit at once.
func probe(cmd *exec.Cmd) string {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return strings.TrimSpace("cannot create namespaces: " + err.Error())
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return "" // exited 0, or reaped by another
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ""
	}
	return strings.TrimSpace("cannot create namespaces: " + err.Error() + " " + out.String())
}
