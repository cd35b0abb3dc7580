package sandbox

import (
	"fmt"
	"sync"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
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
// thread; execve keeps both, and every child inherits them. The filter
// is compiled once per process (seccompProgram): the fast path loads it
// in synaps for every spawn.
func applySeccomp() error {
	prog, err := seccompProgram()
	if err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("seccomp: no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: load the filter: %w", errno)
	}
	return nil
}

// seccompProgram is the filter, compiled on first use (never at package
// init, which every start of synaps pays for): EPERM for knownDenied,
// every other call allowed.
var seccompProgram = sync.OnceValues(func() ([]unix.SockFilter, error) {
	pol := seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls:      []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: knownDenied()}},
	}
	insts, err := pol.Assemble()
	if err != nil {
		return nil, fmt.Errorf("assemble the filter: %w", err)
	}
	prog := make([]unix.SockFilter, 0, len(insts))
	for _, in := range insts {
		raw, err := in.Assemble()
		if err != nil {
			return nil, fmt.Errorf("assemble the filter: %w", err)
		}
		prog = append(prog, unix.SockFilter{Code: raw.Op, Jt: raw.Jt, Jf: raw.Jf, K: raw.K})
	}
	if len(prog) == 0 {
		return nil, fmt.Errorf("the filter is empty")
	}
	return prog, nil
})

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
