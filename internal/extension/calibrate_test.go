package extension

import (
	"io"
	"os/exec"
	"testing"
)

// BenchmarkPipeRoundTripCat is the machine's floor for a hook round trip:
// 64 bytes written to a persistent child (cat) over a pipe and read back,
// with no framing, JSON or synaps code. bench/run prints it next to the
// hook round trips so that a slow, shared machine can be told apart from
// a slow synaps.
func BenchmarkPipeRoundTripCat(b *testing.B) {
	cmd := exec.Command("cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Skipf("cat: %v", err)
	}
	defer cmd.Wait()
	defer in.Close()
	msg := make([]byte, 64)
	for b.Loop() {
		if _, err := in.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(out, msg); err != nil {
			b.Fatal(err)
		}
	}
}
