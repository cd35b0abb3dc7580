package daemon

import (
	"bytes"
	"strings"
	"testing"
)

// The replay keeps the newest output: what a client attaching gets is at
// most ReplayLimit bytes, ends with the last output and starts at a line.
func TestReplayKeepsTheNewest(t *testing.T) {
	line := strings.Repeat("y", 99) + "\n"
	cases := []struct {
		name   string
		writes int // lines of 100 bytes
		want   int // bytes a client gets
	}{
		{"empty", 0, 0},
		{"under the limit", 1000, 100_000},
		{"at the limit", ReplayLimit / 100, ReplayLimit / 100 * 100},
		{"over the limit", ReplayLimit / 100 * 3, ReplayLimit / 100 * 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r []byte
			for i := range tc.writes {
				r = appendReplay(r, []byte(line))
				if len(r) >= 2*ReplayLimit {
					t.Fatalf("after %d writes the replay holds %d bytes", i, len(r))
				}
			}
			r = appendReplay(r, []byte("last"))
			got := replayTail(r)
			if len(got) != tc.want+4 && len(got) != tc.want {
				t.Errorf("a client gets %d bytes, want %d (+4)", len(got), tc.want)
			}
			if !bytes.HasSuffix(got, []byte("last")) {
				t.Errorf("the replay does not end with the last output")
			}
			if tc.writes > 0 && !bytes.HasPrefix(got, []byte(line)) {
				t.Errorf("the replay does not start at a line: %q", got[:20])
			}
		})
	}
}
