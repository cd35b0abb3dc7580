package cli

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// BenchmarkMainVersion is synaps --version / synaps version after package
// init, in process: what Main costs before the process exits.
func BenchmarkMainVersion(b *testing.B) {
	b.Setenv("HOME", b.TempDir())
	b.Setenv("SYNAPS_BASE_DIR", "")
	for _, args := range [][]string{{"--version"}, {"version"}} {
		b.Run(args[0], func(b *testing.B) {
			b.ReportAllocs()
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if code := Main(context.Background(), args, Stdio{Out: &out, Err: io.Discard}); code != 0 {
					b.Fatalf("exit %d: %s", code, out.String())
				}
			}
		})
	}
}
