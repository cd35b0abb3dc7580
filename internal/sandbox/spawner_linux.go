package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// spawner is a thread of synaps confined by one prepared policy and kept
// to fork every command started under it: confining a thread (its own
// mount namespace and read-only mounts, Landlock, seccomp) and starting a
// thread cost more than the fork itself, so they are paid once per
// policy rather than once per spawn. The thread runs nothing but its
// loop (its goroutine is locked to it and never unlocked), so synaps's
// other work never runs confined.
//
// A parent-death signal (Pdeathsig, which the spawners set) fires when
// the thread that forked the child ends, not the process: the thread
// outlives every command it started. Once its policy is retired (stale,
// or out of the cache), it takes no more commands, waits for those it
// started to end, and ends; so it does when idle (spawnerIdle) with no
// command of its running. The runtime ends a thread whose goroutine
// exits locked.
type spawner struct {
	mu      sync.Mutex
	reqs    chan spawnReq // nil until the thread runs
	err     error         // why the thread could not be confined
	retired bool
	// ended hears that a command it started has ended (childEnded, the
	// release Start returns): the thread learns it without polling.
	ended chan struct{}
}

// childEnded tells the spawner that a command it started has ended.
func (sp *spawner) childEnded() {
	select {
	case sp.ended <- struct{}{}:
	default: // a wake is already pending: it looks at every child
	}
}

type spawnReq struct {
	cmd  *exec.Cmd
	done chan<- error
}

// errRetired: the policy was retired between prepare and the spawn;
// Start confines a thread for this one command instead.
var errRetired = errors.New("the policy's spawner was retired")

// spawn starts cmd from pr's spawner thread, which it starts and confines
// on first use. As startFast: forked reports whether cmd.Start was
// called; if not, err says why and cmd is untouched.
func (pr *prepared) spawn(cmd *exec.Cmd) (forked bool, err error) {
	sp := &pr.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	switch {
	case sp.err != nil:
		return false, sp.err
	case sp.retired:
		return false, errRetired
	}
	if sp.ended == nil {
		sp.ended = make(chan struct{}, 1)
	}
	if sp.reqs == nil {
		reqs := make(chan spawnReq)
		ready := make(chan error, 1)
		onOwnThread(func() {
			if err := confineThread(pr); err != nil {
				ready <- err
				return
			}
			ready <- nil
			sp.serve(reqs, sp.ended)
		})
		if err := <-ready; err != nil {
			sp.err = err
			return false, err
		}
		sp.reqs = reqs
	}
	if cmd.Dir == "" {
		// The thread's working directory is its own since it left
		// synaps's mount namespace (unshare gives it its own fs
		// state): the command starts in synaps's current one, as a
		// plain start would.
		if wd, err := os.Getwd(); err == nil {
			cmd.Dir = wd
		}
	}
	done := make(chan error, 1)
	sp.reqs <- spawnReq{cmd, done} // under mu: retire cannot close reqs meanwhile
	return true, <-done
}

// retire ends pr's spawner once the commands it started have ended.
func (pr *prepared) retire() {
	sp := &pr.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if !sp.retired {
		sp.retired = true
		if sp.reqs != nil {
			close(sp.reqs)
		}
	}
}

// onOwnThread runs f on a thread given to it alone, never the main one,
// which the runtime ends once f returns.
func onOwnThread(f func()) {
	var run func(held chan<- struct{})
	run = func(held chan<- struct{}) {
		runtime.LockOSThread() // never unlocked: the thread ends with f
		if held != nil {
			close(held) // the main thread may be let go now
		}
		if tid := unix.Gettid(); tid == unix.Getpid() || hasForked(tid) {
			// The runtime wedges, not ends, the main thread when its
			// locked goroutine exits, and a thread StartPlain forked
			// from must outlive its children: use another, holding
			// this one until that one is locked (so it cannot be this).
			held := make(chan struct{})
			go run(held)
			<-held
			runtime.UnlockOSThread() // untouched
			return
		}
		f()
	}
	go run(nil)
}

// child is a command a spawner started: its pid and, to learn without
// reaping it that it ended, a pidfd (fdErr when none could be opened).
type child struct {
	pid, fd int
	fdErr   error
}

// spawnerIdle is how long a spawner with no command left running waits
// for another before it ends (the next spawn confines a new thread, from
// the kept ruleset): commands that come in bursts — a tool call's hooks,
// parallel subagents, a script of commands — share one thread, and an
// idle session keeps none. It is short enough that a test's leak check
// (goleak, which retries for about 400 ms) sees the thread gone.
const spawnerIdle = 150 * time.Millisecond

// spawnerRecheck bounds how long a spawner whose commands still run
// waits before it looks at them again by itself. A command's end is
// told (childEnded); the look is for a caller that never calls release.
// Long-lived commands (an extension, an MCP server: one spawner each
// for the session) would otherwise wake their threads every spawnerIdle
// for nothing.
const spawnerRecheck = 10 * time.Second

// spawnerLooks counts the times a spawner looked for ended commands by
// itself (its timer, with commands started): TestSpawnerHearsTheEnd
// checks that a told end needs none, and that a long command costs few.
var spawnerLooks atomic.Int64

// serve starts each command asked of it on the calling (confined) thread,
// until reqs is closed (then it waits for the commands it started to end)
// or it has been idle for spawnerIdle with none of them running. While
// commands run it sleeps until one is told ended, or, less and less
// often, up to spawnerRecheck.
func (sp *spawner) serve(reqs chan spawnReq, ended <-chan struct{}) {
	var kids []child
	idle := time.NewTimer(spawnerIdle)
	defer idle.Stop()
	wait := spawnerIdle
	rest := func() { // the next look, with nothing running: the idle end
		wait = spawnerIdle
		idle.Reset(wait)
	}
	for {
		select {
		case r, ok := <-reqs:
			if !ok {
				for _, k := range kids {
					awaitExit(k.pid, k.fd, k.fdErr)
				}
				return
			}
			kids = slicesDeleteEnded(kids)
			if err := r.cmd.Start(); err != nil {
				r.done <- err
			} else {
				pid := r.cmd.Process.Pid
				// Opened before the caller, who alone reaps the
				// child, hears of it: the pid cannot have been
				// reused yet.
				fd, err := unix.PidfdOpen(pid, 0)
				kids = append(kids, child{pid, fd, err})
				r.done <- nil
			}
			rest()
		case <-ended:
			if kids = slicesDeleteEnded(kids); len(kids) == 0 {
				rest()
			}
		case <-idle.C:
			if len(kids) > 0 {
				spawnerLooks.Add(1)
			}
			kids = slicesDeleteEnded(kids)
			if len(kids) > 0 {
				wait = min(2*wait, spawnerRecheck)
				idle.Reset(wait)
				continue
			}
			// A spawn holds mu while it hands its command over: if one
			// does now, serve it first.
			if !sp.mu.TryLock() {
				idle.Reset(wait)
				continue
			}
			if sp.reqs == reqs {
				sp.reqs = nil // the next spawn starts a thread anew
			}
			sp.mu.Unlock()
			return
		}
	}
}

// slicesDeleteEnded drops the children that have ended, closing their
// pidfds, so that a long session's spawner holds only the live ones.
func slicesDeleteEnded(kids []child) []child {
	out := kids[:0]
	for _, k := range kids {
		if ended(k) {
			if k.fdErr == nil {
				unix.Close(k.fd)
			}
			continue
		}
		out = append(out, k)
	}
	return out
}

// ended reports, without waiting or reaping, whether the child has ended
// (or been reaped already).
func ended(k child) bool {
	if k.fdErr == nil {
		fds := []unix.PollFd{{Fd: int32(k.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err == nil && n > 0
	}
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, k.pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != nil || info.Signo != 0
}
