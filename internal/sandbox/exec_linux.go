package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

func init() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case HelperArg:
		os.Exit(runHelper(os.Args[2:]))
	case bridgeArg:
		os.Exit(runBridge(os.Args[2:]))
	case probeArg:
		os.Exit(0)
	}
}

// Wrap rewrites cmd, not yet started, to run confined by p: it starts
// synaps's executable as the helper, which applies p and execve's the
// command, so cmd.Process is the command's own pid. Call release once the
// command has ended (it stops the proxy of a restricted network). Where
// the kernel lacks a feature the policy needs, Wrap says so once per
// session (Warn) and confines with what there is — or, with p.Required,
// returns a *RefusedError. log receives a line per connection the proxy
// refused (nil: none are said).
func Wrap(cmd *exec.Cmd, p Policy, log func(string)) (release func(), err error) {
	if cmd.Err != nil || cmd.Process != nil {
		return func() {}, nil // Start reports it
	}
	pr, err := prepare(p)
	if err != nil || pr == nil {
		return func() {}, err
	}
	return wrapHelper(cmd, pr.spec, log)
}

// plan is what confining p takes on this kernel: nil when there is
// nothing to apply. It warns once per session of each feature the
// kernel lacks, or, with p.Required, refuses.
func plan(p Policy) (*spec, error) {
	f := Detect()
	s := spec{Policy: p, Landlock: f.LandlockABI > 0, Seccomp: f.Seccomp}
	var missing []string
	if !s.Landlock {
		missing = append(missing, "Landlock (files stay unconfined)")
	}
	if !s.Seccomp {
		missing = append(missing, "seccomp (system calls stay unfiltered)")
	}
	masks, kept := planMasks(p)
	masking := len(masks) > 0 && f.MountNS
	if len(masks) > 0 && !f.MountNS {
		missing = append(missing, "mount namespaces (a credential store inside a writable directory is hidden by Landlock alone: a file created directly in that directory cannot be read back)")
	}
	if masking {
		s.Masks = masks
	}
	s.Around = aroundHidden(p, masking, kept)
	s.ReadOnly = readOnlyMounts(p, masking, kept)
	if len(s.ReadOnly) > 0 {
		if f.MountNS {
			s.MountNS = true
		} else {
			missing = append(missing, "mount namespaces (.git/hooks and .synaps stay writable)")
		}
	}
	s.MountNS = s.MountNS || masking
	if p.Network.Restricted {
		if f.NetNS {
			s.NetNS = true
		} else {
			missing = append(missing, "network namespaces (the network stays open)")
		}
	}
	for _, m := range missing {
		if p.Required {
			return nil, &RefusedError{Name: p.Name, Missing: m}
		}
		warnOnce(m, "the kernel lacks "+m+"; see `synaps sandbox status` ("+f.Reason+")")
	}
	if !s.Landlock && !s.Seccomp && !s.MountNS && !s.NetNS {
		return nil, nil
	}
	return &s, nil
}

// wrapHelper rewrites cmd to start synaps's executable as the helper,
// which applies s and execve's the command.
func wrapHelper(cmd *exec.Cmd, s spec, log func(string)) (release func(), err error) {
	release = func() {}
	p := s.Policy
	exe, err := os.Executable()
	if err != nil {
		return release, fmt.Errorf("sandbox: cannot find synaps's executable to confine %s: %w", p.Name, err)
	}
	if s.NetNS {
		px, err := startProxy(p.Network, p.Settings.Network, log)
		if err != nil {
			return release, err
		}
		s.ProxySocket = px.socket
		release = px.close
	}
	data, err := json.Marshal(s)
	if err != nil {
		release()
		return func() {}, err
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append([]string(nil), env...), specEnv+"="+string(data))
	cmd.Args = append([]string{exe, HelperArg, "--", cmd.Path}, cmd.Args...)
	cmd.Path = exe
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	attr := cmd.SysProcAttr
	if s.MountNS {
		attr.Cloneflags |= syscall.CLONE_NEWNS
	}
	if s.NetNS {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	if attr.Cloneflags != 0 && os.Geteuid() != 0 {
		userNamespace(attr)
	}
	return release, nil
}

// userNamespace puts a user who is not root in a user namespace of their
// own, mapped to themselves, with the capabilities the helper needs to
// mount and to bring loopback up there; the helper drops them before
// execve.
func userNamespace(attr *syscall.SysProcAttr) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN}
}

// readOnlyMounts are the existing paths the helper mounts read-only:
// Policy.ReadOnly, and the hidden paths inside a writable tree that are
// not masked (which Landlock keeps unreadable but, granted write-class
// rights by the tree, not unwritable): all of them without masks, the
// kept ones with.
func readOnlyMounts(p Policy, masking bool, kept []string) []string {
	var out []string
	add := func(path string) {
		r := realPath(path)
		if _, err := os.Lstat(r); err == nil && !containsPath(out, r) {
			out = append(out, r)
		}
	}
	for _, r := range p.ReadOnly {
		add(r)
	}
	writes := resolveAll(p.Write) // resolved once: under would resolve them again for every hidden path
	for _, h := range p.Hidden {
		rh := realPath(h)
		if masking && !containsPath(kept, rh) {
			continue
		}
		for _, w := range writes {
			if within(rh, w) {
				add(h)
				break
			}
		}
	}
	return out
}

// runHelper is the helper mode: args are "--", the command's path and its
// argv. It returns only on failure (exit status 126, as a shell's for a
// command it cannot run).
func runHelper(args []string) int {
	runtime.LockOSThread() // every step below is this thread's, and execve's
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "synaps sandbox: %v\n", err)
		return 126
	}
	if len(args) < 3 || args[0] != "--" {
		return fail(fmt.Errorf("usage: %s -- PATH ARGV0 [ARGS...]", HelperArg))
	}
	var s spec
	if err := json.Unmarshal([]byte(os.Getenv(specEnv)), &s); err != nil {
		return fail(fmt.Errorf("no policy in %s: %v", specEnv, err))
	}
	os.Unsetenv(specEnv)
	if s.MountNS {
		if err := mountAll(s); err != nil {
			return fail(err)
		}
	}
	if s.NetNS {
		port, err := bridge(s.ProxySocket)
		if err != nil {
			return fail(err)
		}
		proxy := "http://127.0.0.1:" + port
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
			os.Setenv(k, proxy)
		}
		os.Unsetenv("NO_PROXY")
		os.Unsetenv("no_proxy")
	}
	// Capabilities given for the namespaces' set-up end here.
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("no_new_privs: %w", err))
	}
	if s.Landlock {
		if err := applyLandlock(s); err != nil {
			return fail(err)
		}
	}
	if s.Seccomp {
		if err := applySeccomp(); err != nil {
			return fail(err)
		}
	}
	path := args[1]
	err := syscall.Exec(path, args[2:], os.Environ())
	if strings.ContainsRune(path, '/') || err != syscall.ENOENT {
		return fail(fmt.Errorf("%s: %w", path, err))
	}
	return fail(fmt.Errorf("%s: command not found", filepath.Base(path)))
}

// mountAll makes the mount namespace a slave of synaps's (nothing
// mounted here reaches synaps's; what is mounted there later, a USB
// drive, still reaches a spawner thread kept for a whole session),
// bind-mounts each read-only path read-only and mounts the masks.
func mountAll(s spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	for _, p := range s.ReadOnly {
		if err := bindReadOnly(p, p); err != nil {
			return fmt.Errorf("read-only mount of %s: %w", p, err)
		}
	}
	return applyMasks(s.Masks)
}
