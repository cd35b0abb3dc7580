package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// What `synaps sandbox status` says of each kernel feature, present or
// missing, and what it costs when missing.
func TestStatusLines(t *testing.T) {
	tests := []struct {
		name string
		f    Features
		want []string
	}{
		{"not Linux", Features{}, []string{"sandbox: not supported on this system (Linux only): nothing synaps starts is confined"}},
		{"everything, as root", Features{Supported: true, LandlockABI: 7, Seccomp: true, MountNS: true, NetNS: true}, []string{
			"landlock: yes (ABI 7)",
			"seccomp: yes",
			"mount namespaces: yes",
			"network namespaces: yes",
		}},
		{"everything, as a user", Features{Supported: true, LandlockABI: 3, Seccomp: true, MountNS: true, NetNS: true, UserNS: true}, []string{
			"landlock: yes (ABI 3)",
			"seccomp: yes",
			"mount namespaces: yes (through a user namespace)",
			"network namespaces: yes (through a user namespace)",
		}},
		{"nothing", Features{Supported: true, UserNS: true, Reason: "cannot create namespaces: operation not permitted"}, []string{
			"landlock: no — files are not confined",
			"seccomp: no — system calls are not filtered",
			"mount namespaces: no — .git/hooks and .synaps stay writable for bash (cannot create namespaces: operation not permitted)",
			"network namespaces: no — network allow/deny lists are not enforced (cannot create namespaces: operation not permitted)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, tc.f.Lines()); d != "" {
				t.Errorf("lines (-want +got):\n%s", d)
			}
		})
	}
}

// Detect reports what this kernel offers, as the kernel itself says it
// in /proc and by the system calls: status must not claim a boundary
// that is not there, nor miss one that is.
func TestDetectMatchesTheKernel(t *testing.T) {
	f := Detect()
	if !f.Supported {
		t.Fatal("Linux must be supported")
	}
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	wantABI := int(abi)
	if errno != 0 {
		wantABI = 0
	}
	if f.LandlockABI != wantABI {
		t.Errorf("landlock ABI %d, the kernel says %d (errno %v)", f.LandlockABI, wantABI, errno)
	}
	if lsm, err := os.ReadFile("/sys/kernel/security/lsm"); err == nil {
		if on := strings.Contains(string(lsm), "landlock"); on != (f.LandlockABI > 0) {
			t.Errorf("landlock ABI %d, but the LSM list is %q", f.LandlockABI, lsm)
		}
	}
	if avail, err := os.ReadFile("/proc/sys/kernel/seccomp/actions_avail"); err == nil {
		if on := strings.Contains(string(avail), "errno"); on != f.Seccomp {
			t.Errorf("seccomp %v, but the kernel's filter actions are %q", f.Seccomp, avail)
		}
	}
	line := func(prefix string) string {
		for _, l := range f.Lines() {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Fatalf("no %q line in %q", prefix, f.Lines())
		return ""
	}
	if f.LandlockABI > 0 && line("landlock: ") != fmt.Sprintf("landlock: yes (ABI %d)", f.LandlockABI) {
		t.Errorf("status says %q for ABI %d", line("landlock: "), f.LandlockABI)
	}
	// Namespaces: as root, or with user namespaces allowed, they must
	// be found (this build machine allows both).
	maxUserNS, _ := os.ReadFile("/proc/sys/user/max_user_namespaces")
	mayUserNS := strings.TrimSpace(string(maxUserNS)) != "0" && len(maxUserNS) > 0
	if clone, err := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); err == nil && strings.TrimSpace(string(clone)) == "0" {
		mayUserNS = false
	}
	if os.Geteuid() == 0 || mayUserNS {
		if !f.MountNS || !f.NetNS {
			t.Errorf("namespaces not found (mount %v, network %v: %s), though %s", f.MountNS, f.NetNS, f.Reason, map[bool]string{true: "synaps runs as root", false: "user namespaces are allowed"}[os.Geteuid() == 0])
		}
		if f.UserNS != (os.Geteuid() != 0) {
			t.Errorf("UserNS %v for euid %d", f.UserNS, os.Geteuid())
		}
	}
}

// The namespace probe judges the kernel, not the probe's fate: a probe
// that started in new namespaces and was then killed (synaps quitting
// while it ran: the lifeline kills every child left) found them; a start
// the kernel refuses did not.
func TestProbeKilledStillFindsNamespaces(t *testing.T) {
	ns := func(cmd *exec.Cmd) *exec.Cmd {
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWNET}
		if os.Geteuid() != 0 {
			userNamespace(cmd.SysProcAttr)
		}
		return cmd
	}
	if f := Detect(); !f.MountNS || !f.NetNS {
		t.Skipf("no namespaces here: %s", f.Reason)
	}
	tests := []struct {
		name   string
		cmd    *exec.Cmd
		refuse string // a prefix of the reason; "" found
	}{
		{"exits 0", ns(exec.Command("/bin/sh", "-c", "exit 0")), ""},
		{"killed while it runs", ns(exec.Command("/bin/sh", "-c", "kill -KILL $$")), ""},
		{"exits 1", ns(exec.Command("/bin/sh", "-c", "echo no; exit 1")), "cannot create namespaces: exit status 1 no"},
		{"refused at its start", func() *exec.Cmd {
			cmd := exec.Command("/bin/sh", "-c", "exit 0")
			cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS, Setctty: true, Ctty: 1 << 20}
			return cmd
		}(), "cannot create namespaces: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := probe(tc.cmd)
			if (tc.refuse == "") != (got == "") || !strings.HasPrefix(got, tc.refuse) {
				t.Errorf("probe says %q, want %q", got, tc.refuse)
			}
		})
	}
}
