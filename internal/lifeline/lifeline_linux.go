package lifeline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

func setSubreaper() error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// reapOrphans kills and reaps every child of this process: at Stop the
// children synaps started itself have been stopped and reaped, so what is
// left are orphans re-parented to the subreaper. Each is killed with its
// process group (a setsid'd process leads its own); their own children
// are re-parented to synaps in turn, hence the rounds.
func reapOrphans(spared map[int]bool) {
	for round := 0; round < 16; round++ {
		kids := children(spared)
		if len(kids) == 0 {
			return
		}
		for _, pid := range kids {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for _, pid := range kids {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}
	}
}

// children lists the pids whose parent is this process, but the spared:
// from each thread's /proc/self/task/TID/children (a few small files), or,
// on a kernel without them, by reading every process's stat.
func children(spared map[int]bool) []int {
	if kids, ok := taskChildren(spared); ok {
		return kids
	}
	return scanChildren(spared)
}

// scanChildren is children by reading every process's stat.
func scanChildren(spared map[int]bool) []int {
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(s[i+1:]); len(f) > 1 && f[1] == self && !spared[pid] {
			out = append(out, pid)
		}
	}
	return out
}

// taskChildren reads the children of this process's threads from
// /proc/self/task/*/children; ok is false when the kernel has no such
// files (CONFIG_PROC_CHILDREN off).
func taskChildren(spared map[int]bool) (out []int, ok bool) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, false
	}
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", t.Name(), "children"))
		if err != nil {
			if os.IsNotExist(err) {
				return nil, false
			}
			continue // the thread ended meanwhile
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && !spared[pid] {
				out = append(out, pid)
			}
		}
	}
	return out, true
}
