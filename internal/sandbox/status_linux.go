package sandbox

import (
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
	if out, err := cmd.CombinedOutput(); err != nil {
		f.Reason = strings.TrimSpace("cannot create namespaces: " + err.Error() + " " + string(out))
		return f
	}
	f.MountNS, f.NetNS = true, true
	return f
}
