package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The cost of confinement per spawn: /bin/true started plainly, and
// confined under the bash policy of a project with .git/hooks (Landlock,
// seccomp, a mount namespace for the read-only paths) through Start —
// the fast path, as root; a user who is not root takes the helper for the
// mounts — and through the helper (Wrap), as before the fast path. The
// policy of a network allow list adds a network namespace, a bridge
// process and a proxy: NetRestricted, always through the helper.
//
// Besides the wall time, each reports synaps's own CPU time per spawn
// (cpu-µs/op, user and system, this process only): on the shared,
// loaded build machine the wall time swings with the other work, the CPU
// time much less.
func BenchmarkSpawnPlain(b *testing.B) {
	defer reportCPU(b)()
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU measures this process's CPU time from now until the returned
// function is called and reports it per iteration.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64((cpu()-start).Microseconds())/float64(b.N), "cpu-µs/op")
	}
}

func BenchmarkSpawnConfined(b *testing.B) {
	benchConfined(b, DefaultConfig(), Start)
}

// BenchmarkSpawnConfinedSparse: spawns further apart than spawnerIdle
// (the wait is not timed), as a model's commands come: each confines a
// new thread, from the kept policy, instead of reusing one.
func BenchmarkSpawnConfinedSparse(b *testing.B) {
	benchConfined(b, DefaultConfig(), func(cmd *exec.Cmd, p Policy, log func(string)) (func(), error) {
		b.StopTimer()
		time.Sleep(spawnerIdle + 50*time.Millisecond)
		b.StartTimer()
		return Start(cmd, p, log)
	})
}

func BenchmarkSpawnConfinedHelper(b *testing.B) {
	benchConfined(b, DefaultConfig(), func(cmd *exec.Cmd, p Policy, log func(string)) (func(), error) {
		release, err := Wrap(cmd, p, log)
		if err == nil {
			err = cmd.Start()
		}
		return release, err
	})
}

func BenchmarkSpawnConfinedNetRestricted(b *testing.B) {
	c := DefaultConfig()
	c.NetAllow = []string{"example.com"}
	benchConfined(b, c, Start)
}

func benchConfined(b *testing.B, c Config, start func(*exec.Cmd, Policy, func(string)) (func(), error)) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755); err != nil {
		b.Fatal(err)
	}
	p := BashPolicy(NewEnv(dir), c)
	Detect()
	defer reportCPU(b)()
	for b.Loop() {
		cmd := exec.Command("/bin/true")
		release, err := start(cmd, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		release()
	}
}

// BenchmarkSpawnConfinedHomeProjectSparse: the project is a home
// directory holding ~/.ssh (a key, known_hosts) and ~/.netrc, so each
// new spawner thread also mounts the masks (mask_linux.go); spawns are
// sparse, so every one pays them.
func BenchmarkSpawnConfinedHomeProjectSparse(b *testing.B) {
	home := b.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{".ssh/id_rsa", ".ssh/known_hosts", ".netrc"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	e := Env{Project: home, Home: home, Temp: os.TempDir(), Getenv: func(string) string { return "" }}
	p := BashPolicy(e, DefaultConfig())
	Detect()
	defer reportCPU(b)()
	for b.Loop() {
		b.StopTimer()
		time.Sleep(spawnerIdle + 50*time.Millisecond)
		b.StartTimer()
		cmd := exec.Command("/bin/true")
		release, err := Start(cmd, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		release()
	}
}
