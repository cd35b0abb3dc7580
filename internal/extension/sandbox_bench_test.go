package extension

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/config"
)

// BenchmarkHookRoundTripSandbox: one before_tool_call to one Go
// extension, confined by the default plugin policy (sandbox.plugins on,
// the default) and unconfined (sandbox.plugins = off). The confinement is
// applied once, when the process starts; a round trip crosses the same
// pipes either way, so the two should be equal. Each sub-benchmark first
// checks, in /proc, that the extension is (or is not) under a seccomp
// filter, so that it measures what it says.
func BenchmarkHookRoundTripSandbox(b *testing.B) {
	for _, c := range []struct {
		name     string
		cfg      string
		confined bool
	}{{"confined", "", true}, {"unconfined", "sandbox.plugins = off\n", false}} {
		b.Run(c.name, func(b *testing.B) {
			base := b.TempDir()
			benchGuard(b, base, "g")
			cfg, err := config.Parse("cfg", []byte(c.cfg))
			if err != nil {
				b.Fatal(err)
			}
			h := startHost(b, base, func(o *Options) { o.Config = cfg; o.ProjectDir = b.TempDir() })
			for _, s := range h.Statuses() {
				if s.PID == 0 {
					b.Fatalf("%s has no process: %s", s.ID, s.Error)
				}
				if got := seccompMode(b, s.PID); (got == 2) != c.confined {
					b.Fatalf("%s: seccomp mode %d, want confined=%v", s.ID, got, c.confined)
				}
			}
			benchBeforeToolCallOn(b, h)
		})
	}
}

// seccompMode is the Seccomp field of /proc/PID/status: 0 none, 2 filter.
func seccompMode(b *testing.B, pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Seccomp:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	b.Fatalf("no Seccomp line in /proc/%d/status", pid)
	return -1
}
