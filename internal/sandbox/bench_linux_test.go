package sandbox

import (
	"os/exec"
	"testing"
)

// The cost of confinement per spawn: /bin/true started plainly, and
// through the helper under the bash policy (Landlock, seccomp, a mount
// namespace for the read-only paths). The policy of a network allow list
// adds a network namespace, a bridge process and a proxy: NetRestricted.
func BenchmarkSpawnPlain(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpawnConfined(b *testing.B) {
	benchConfined(b, DefaultConfig())
}

func BenchmarkSpawnConfinedNetRestricted(b *testing.B) {
	c := DefaultConfig()
	c.NetAllow = []string{"example.com"}
	benchConfined(b, c)
}

func benchConfined(b *testing.B, c Config) {
	dir := b.TempDir()
	p := BashPolicy(NewEnv(dir), c)
	Detect()
	for b.Loop() {
		cmd := exec.Command("/bin/true")
		release, err := Wrap(cmd, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		release()
	}
}
