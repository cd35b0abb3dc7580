// Package lifeline keeps the processes synaps starts from outliving it.
//
// Three mechanisms, because no one of them covers every case:
//
//   - The sentinel. Start runs one small sh process per synaps process
//     that reads a pipe whose only write end synaps holds. Every process
//     group synaps starts (an extension, a bash tool command) is announced
//     to it with Guard and withdrawn when synaps has ended the group
//     itself. However synaps ends — exit, panic, SIGKILL — the kernel
//     closes the write end, the sentinel reads EOF and SIGKILLs the groups
//     still announced. A parent-death signal (Pdeathsig) reaches only the
//     direct child; the sentinel reaches the whole group, such as the
//     `sleep 30` that `bash -c 'sleep 30; echo slow'` forked.
//   - The subreaper (Linux). Start makes synaps a child subreaper
//     (prctl PR_SET_CHILD_SUBREAPER), so a descendant that escaped its
//     group (setsid) and lost its parent is re-parented to synaps instead
//     of to init, and Stop kills and reaps every such orphan before synaps
//     exits.
//   - The parent-death signal (Linux), set by the spawners themselves on
//     their direct children: a second line of defence should the sentinel
//     itself be killed.
//
// What remains possible: after a SIGKILL of synaps, a descendant that left
// its process group (setsid, or a daemon that double-forks) survives — the
// subreaper dies with synaps and the sentinel only knows the groups. On
// systems other than Linux there is no subreaper nor parent-death signal:
// only the sentinel, so escaped descendants survive even a normal exit.
// Windows has none of the three (no /bin/sh, no process groups to kill):
// the first Guard says on stderr that started processes may outlive synaps.
//
// Only a real synaps process calls Start (cmd/synaps, and tests that
// re-run a binary as synaps); in a process that did not, Guard does
// nothing, so in-process tests never get a sentinel or become subreapers.
package lifeline

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"

	"github.com/synaps-cli/synaps/internal/procgroup"
)

// sentinelScript is the sentinel: it keeps the set of announced groups
// ("add PGID" / "del PGID" lines on stdin) and, at EOF, SIGKILLs them.
const sentinelScript = `set -f
g=" "
while read -r op id; do
  case $op in
    add) g="$g$id " ;;
    del) n=" "; for x in $g; do [ "$x" = "$id" ] || n="$n$x "; done; g=$n ;;
  esac
done
for x in $g; do kill -KILL -$x 2>/dev/null; done
`

// state is the process-wide lifeline; mu guards every field.
var state struct {
	mu sync.Mutex
	// w is the write end of the sentinel's stdin; nil when Start has not
	// run, has failed, or Stop has run.
	w *os.File
	// sentinel is the sentinel process, for Stop to reap.
	sentinel *exec.Cmd
	// subreaper says Start made this process a child subreaper, so Stop
	// must reap orphans.
	subreaper bool
	// armed says Start has run: the first Guard starts the sentinel
	// (most commands — version, extensions list — start no process, and
	// pay nothing for the lifeline). failed: starting it failed once
	// (said on stderr then); nothing is announced after that.
	armed, failed bool
	// spared are children Stop leaves alone (Spare): the session daemon
	// a client started, which is meant to outlive it.
	spared map[int]bool
}

// Spare exempts the child pid from Stop's reaping: a process synaps
// starts on purpose to outlive it (the session daemon, started in its own
// session and never announced with Guard).
func Spare(pid int) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.spared == nil {
		state.spared = map[int]bool{}
	}
	state.spared[pid] = true
}

// Start arms the lifeline for this process and returns Stop. Call it once,
// first thing in main. It only makes synaps a subreaper (Linux); the
// sentinel starts with the first process group announced (Guard), so a
// command that starts no process pays for no sentinel. The error is nil:
// a sentinel that cannot start (no /bin/sh) is said on stderr when it is
// first needed, and synaps runs on with the parent-death signal.
func Start() (stop func(), err error) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if !state.armed {
		state.armed = true
		state.subreaper = setSubreaper() == nil
	}
	return Stop, nil
}

// startSentinelLocked starts the sentinel; state.mu is held.
func startSentinelLocked() error {
	if noSentinel != "" {
		return errors.New(noSentinel)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("lifeline: %w", err)
	}
	cmd := exec.Command("/bin/sh", "-c", sentinelScript)
	cmd.Stdin = r // only the read end is passed; w is close-on-exec
	// Its own session: the terminal's Ctrl-C must not end the sentinel.
	cmd.SysProcAttr = procgroup.Detached()
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return fmt.Errorf("lifeline: cannot start the sentinel (/bin/sh): %w", err)
	}
	r.Close()
	state.w, state.sentinel = w, cmd
	return nil
}

// Guard announces the process group pgid (a spawned child's pid when it
// was started with Setpgid or Setsid) to the sentinel, starting it the
// first time; call the returned function once synaps has killed the
// group itself. It does nothing when Start has not run.
func Guard(pgid int) (release func()) {
	if !tell("add", pgid) {
		return func() {}
	}
	return func() { tell("del", pgid) }
}

func tell(op string, pgid int) bool {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.w == nil && op == "add" && state.armed && !state.failed && state.sentinel == nil {
		if err := startSentinelLocked(); err != nil {
			state.failed = true
			fmt.Fprintln(os.Stderr, "synaps: warning:", err)
		}
	}
	if state.w == nil {
		return false
	}
	if _, err := state.w.WriteString(op + " " + strconv.Itoa(pgid) + "\n"); err != nil {
		// The sentinel is gone (someone killed it): Pdeathsig and Stop
		// still hold; stop writing to a broken pipe.
		state.w.Close()
		state.w = nil
		return false
	}
	return true
}

// Stop ends the lifeline at a normal exit: the sentinel kills any group
// still announced and is reaped, and — on Linux, as subreaper — every
// orphan re-parented to synaps is killed with its group and reaped.
func Stop() {
	state.mu.Lock()
	defer state.mu.Unlock()
	state.armed = false // no sentinel starts after the end
	if state.w != nil {
		state.w.Close()
		state.w = nil
	}
	if state.sentinel != nil {
		_ = state.sentinel.Wait()
		state.sentinel = nil
	}
	if state.subreaper {
		reapOrphans(state.spared)
	}
}
