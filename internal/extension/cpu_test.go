package extension

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/procs"
)

// cpuMeter measures the CPU time a benchmark spends per op: in this
// process (synaps's side) and in the host's extension processes. On these
// shared virtual machines the wall time of a round trip is mostly two
// wake-ups of idle cores, which other tenants move by a factor of three
// from one run to the next; the work each side does is steadier, and it
// is the part the code controls.
type cpuMeter struct {
	self, ext time.Duration
	pids      []int
}

// meterCPU starts measuring; call report after the benchmark loop. It
// also runs the benchmark with the one P that cmd/synaps runs with
// (GOMAXPROCS=1 unless the user sets it), whatever -cpu says, so that the
// figures are those of the product.
func meterCPU(b *testing.B, h *Host) *cpuMeter {
	prev := runtime.GOMAXPROCS(1)
	b.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	m := &cpuMeter{}
	for _, s := range h.Statuses() {
		if s.PID != 0 {
			m.pids = append(m.pids, s.PID)
		}
	}
	m.self, m.ext = selfCPU(), m.extCPU()
	return m
}

// report adds host-cpu-ns/op and ext-cpu-ns/op to the benchmark's line.
func (m *cpuMeter) report(b *testing.B) {
	self, ext := selfCPU()-m.self, m.extCPU()-m.ext
	n := float64(b.N)
	b.ReportMetric(float64(self.Nanoseconds())/n, "host-cpu-ns/op")
	b.ReportMetric(float64(ext.Nanoseconds())/n, "ext-cpu-ns/op")
}

// selfCPU is this process's user and system time.
func selfCPU() time.Duration {
	user, system, _ := procs.CPUTime()
	return user + system
}

// extCPU is the time the extension processes' threads have run, from
// /proc/PID/task/*/schedstat (nanoseconds, unlike stat's clock ticks).
func (m *cpuMeter) extCPU() time.Duration {
	var sum time.Duration
	for _, pid := range m.pids {
		tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
		for _, t := range tasks {
			data, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			f := strings.Fields(string(data))
			if len(f) > 0 {
				ns, _ := strconv.ParseInt(f[0], 10, 64)
				sum += time.Duration(ns)
			}
		}
	}
	return sum
}
