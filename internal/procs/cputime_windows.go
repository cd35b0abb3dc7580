//go:build windows

package procs

import (
	"time"

	"golang.org/x/sys/windows"
)

// CPUTime is the user and kernel CPU time this process has used so far
// (GetProcessTimes), for the benchmarks that report what synaps itself
// spends.
func CPUTime() (user, system time.Duration, err error) {
	var created, exited, kernel, usr windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &usr); err != nil {
		return 0, 0, err
	}
	// A Filetime counts 100 ns ticks.
	ticks := func(f windows.Filetime) time.Duration {
		return time.Duration(int64(f.HighDateTime)<<32|int64(f.LowDateTime)) * 100
	}
	return ticks(usr), ticks(kernel), nil
}
