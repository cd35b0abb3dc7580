package sandbox

import (
	"fmt"
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// Start confines cmd by p and starts it, as Wrap then cmd.Start would,
// but without re-running synaps as the helper where it can: a policy that
// needs no network namespace is applied in synaps itself, on one OS
// thread given to it alone (the fast path, startFast), and the command is
// forked from that thread — a few hundred microseconds instead of the
// helper's start. Where the fast path cannot be taken (a restricted
// network; read-only mounts for a user who is not root, who needs a user
// namespace, which a process of many threads cannot enter) or fails
// before the fork, Start falls back on the helper. Call release once the
// command has ended.
func Start(cmd *exec.Cmd, p Policy, log func(string)) (release func(), err error) {
	release = func() {}
	if cmd.Err != nil || cmd.Process != nil {
		return release, cmd.Start() // it reports the error
	}
	pr, err := prepare(p)
	if err != nil {
		return release, notStarted(cmd, err)
	}
	if pr == nil {
		return release, StartPlain(cmd)
	}
	if fastEligible(pr.spec) {
		forked, err := pr.spawn(cmd)
		if forked && err == nil {
			release = pr.sp.childEnded // its thread need not look for the end
		}
		if !pr.cached {
			pr.retire()
		}
		if err == errRetired {
			forked, err = startFast(cmd, pr)
		}
		if forked {
			return release, err
		}
		warnOnce("fast path", fmt.Sprintf("confining without the helper failed (%v); synaps re-runs itself to confine each process", err))
	}
	if release, err = wrapHelper(cmd, pr.spec, log); err != nil {
		return release, notStarted(cmd, err)
	}
	if err := StartPlain(cmd); err != nil {
		release()
		return func() {}, err
	}
	return release, nil
}

// fastEligible reports whether s can be applied by startFast: no network
// namespace (its bridge needs a process inside), and read-only mounts
// only for root, who may unshare the mount namespace of one thread
// without a user namespace.
func fastEligible(s spec) bool {
	return !s.NetNS && (!s.MountNS || os.Geteuid() == 0)
}

// startFast applies pr to a thread of synaps's own, for this one
// command, and starts cmd from it: the kernel gives the child the forking
// thread's mount namespace, no_new_privs, Landlock domain and seccomp
// filter, all of which are the thread's, not the process's (seccomp is
// loaded without TSYNC; Landlock restricts the calling thread's
// credentials). Start takes it when pr's spawner (spawner.go), which
// does the same once for every command of a policy, was retired
// meanwhile.
//
// The thread runs nothing else and ends after the command (onOwnThread);
// until then it stays parked: a parent-death signal (Pdeathsig, set by
// the spawners through SysProcAttr) fires when the thread that forked the
// child exits, not the process, and would kill the command at once. The
// runtime starts threads for other work from its template thread, never
// from a locked one, so no other thread inherits the confinement.
//
// forked reports whether cmd.Start was called: then err is its error and
// cmd cannot be started again; otherwise err says which step failed and
// cmd is untouched, for the helper to start it.
func startFast(cmd *exec.Cmd, pr *prepared) (forked bool, err error) {
	type result struct {
		forked bool
		err    error
	}
	done := make(chan result, 1)
	onOwnThread(func() {
		if err := confineThread(pr); err != nil {
			done <- result{false, err}
			return
		}
		if err := cmd.Start(); err != nil {
			done <- result{true, err}
			return
		}
		pid := cmd.Process.Pid
		// Opened before Start returns to the caller, who alone reaps
		// the child: the pid cannot have been reused yet.
		pidfd, perr := unix.PidfdOpen(pid, 0)
		done <- result{true, nil}
		awaitExit(pid, pidfd, perr)
	})
	r := <-done
	return r.forked, r.err
}

// confineThread applies pr to the calling, locked thread.
func confineThread(pr *prepared) error {
	s := pr.spec
	if s.MountNS {
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			return fmt.Errorf("mount namespace: %w", err)
		}
		if err := mountAll(s); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if s.Landlock {
		fd, err := buildRuleset(pr.grants)
		if err != nil {
			return err
		}
		err = restrictSelf(fd)
		unix.Close(fd)
		if err != nil {
			return err
		}
	}
	if s.Seccomp {
		if err := applySeccomp(); err != nil {
			return err
		}
	}
	return nil
}

// awaitExit blocks the calling thread until the child pid has ended,
// without reaping it (the caller's cmd.Wait does): it polls the pidfd,
// readable once the child is a zombie, or, on a kernel without pidfds,
// waits with WNOWAIT (ECHILD once the caller has reaped it).
func awaitExit(pid, pidfd int, perr error) {
	if perr == nil {
		defer unix.Close(pidfd)
		fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
		for {
			if _, err := unix.Poll(fds, -1); err != unix.EINTR {
				return
			}
		}
	}
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
}
