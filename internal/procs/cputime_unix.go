//go:build !windows

package procs

import (
	"syscall"
	"time"
)

// CPUTime is the user and system CPU time this process has used so far
// (getrusage), for the benchmarks that report what synaps itself spends.
func CPUTime() (user, system time.Duration, err error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, err
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), nil
}
