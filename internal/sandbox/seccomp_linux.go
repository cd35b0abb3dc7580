package sandbox

import (
	"fmt"
	"sync"

	seccomp "github.com/elastic/go-seccomp-bpf"
)

// deniedSyscalls fail with EPERM in every confined process: reading or
// steering other processes (ptrace, process_vm_*), changing what the
// filesystem or the namespaces look like (mount, pivot_root, unshare,
// setns), and reaching into the kernel (modules, kexec, bpf, keyrings,
// perf). A command that needs one (strace, gdb, a container runtime) is
// run with the sandbox off for it: sandbox.bash = off.
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev",
	"mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr",
	"unshare", "setns",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"bpf", "perf_event_open", "userfaultfd",
	"keyctl", "add_key", "request_key",
	"reboot", "swapon", "swapoff", "acct", "quotactl",
}

// applySeccomp sets no_new_privs and loads the filter on the calling
// thread; execve keeps both, and every child inherits them.
func applySeccomp() error {
	f := seccomp.Filter{
		NoNewPrivs: true,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls:      []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: knownDenied()}},
		},
	}
	if err := seccomp.LoadFilter(f); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return nil
}

// knownDenied are the deniedSyscalls this architecture has, found once
// per process: the fast path loads the filter in synaps for every spawn.
var knownDenied = sync.OnceValue(func() []string {
	names := make([]string, 0, len(deniedSyscalls))
	for _, n := range deniedSyscalls {
		if syscallKnown(n) {
			names = append(names, n)
		}
	}
	return names
})

// syscallKnown reports whether this architecture's table has the call
// (an unknown name fails the whole filter).
func syscallKnown(name string) bool {
	p := seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: []string{name}}}}
	_, err := p.Assemble()
	return err == nil
}

// seccompSupported reports whether the kernel offers seccomp filters.
func seccompSupported() bool { return seccomp.Supported() }
