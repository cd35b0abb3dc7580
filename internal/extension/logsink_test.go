package extension

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// logWriterEnv, set, makes the test binary a log writer (TestMain): it
// appends lines to a plugin's log through a logSink, as a synaps process
// does, and exits. The value is "dir id tag lines max".
const logWriterEnv = "SYNAPS_TEST_LOG_WRITER"

func runLogWriter() int {
	f := strings.Fields(os.Getenv(logWriterEnv))
	if len(f) != 5 {
		fmt.Fprintln(os.Stderr, "bad", logWriterEnv)
		return 2
	}
	n, _ := strconv.Atoi(f[3])
	max, _ := strconv.ParseInt(f[4], 10, 64)
	s := newLogSink(f[0], f[1])
	s.max = max
	// Like parallel sessions, every writer has opened the log before any
	// writes: say so, and wait for the go.
	if err := os.WriteFile(filepath.Join(f[0], "ready-"+f[2]), nil, 0o644); err != nil {
		return 2
	}
	for {
		if _, err := os.Stat(filepath.Join(f[0], "go")); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for i := 0; i < n; i++ {
		s.stderr(logLine(f[2], i))
	}
	s.close()
	return 0
}

// logLine is line i of writer tag, padded so every entry has the same size.
func logLine(tag string, i int) string {
	l := fmt.Sprintf("writer %s line %05d ", tag, i)
	return l + strings.Repeat("x", 70-len(l))
}

// Ten synaps processes write the same plugin's log at once while it
// crosses the rotation size: every line must be in <id>.log.1 or <id>.log,
// exactly once. The log starts just under the limit, so each process opens
// it believing it is nearly full — before the fix each then rotated on its
// own, each rotation replacing <id>.log.1, and most lines were lost. The
// sizes allow exactly one rotation, so no line is dropped by design.
func TestLogRotationWithParallelWriters(t *testing.T) {
	const writers, lines = 10, 2000
	dir := t.TempDir()
	entry := int64(len(stamp()) + 1 + len(logLine("00", 0)) + 1)
	total := int64(writers*lines) * entry
	max := total + total/20 // the writers fit in one file, not in two less the prefill
	prefill := max - 10*entry
	path := filepath.Join(dir, "p.log")
	var pre bytes.Buffer
	for i := int64(0); i < prefill/entry; i++ {
		fmt.Fprintf(&pre, "%s %s\n", stamp(), logLine("pre", int(i)))
	}
	if err := os.WriteFile(path, pre.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for w := 0; w < writers; w++ {
		c := exec.Command(self, "-test.run=^$")
		c.Env = append(os.Environ(), fmt.Sprintf("%s=%s p %02d %d %d", logWriterEnv, dir, w, lines, max))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for w := 0; w < writers; w++ {
		waitFor(t, func() bool {
			_, err := os.Stat(filepath.Join(dir, fmt.Sprintf("ready-%02d", w)))
			return err == nil
		})
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for _, name := range []string{path + ".1", path} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(name); st.Size() > max {
			t.Errorf("%s is %d bytes, over the rotation size %d", name, st.Size(), max)
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if _, line, ok := strings.Cut(l, " "); ok {
				seen[line]++
			}
		}
	}
	missing, twice := 0, 0
	for w := 0; w < writers; w++ {
		for i := 0; i < lines; i++ {
			switch seen[logLine(fmt.Sprintf("%02d", w), i)] {
			case 0:
				missing++
			case 1:
			default:
				twice++
			}
		}
	}
	for i := int64(0); i < prefill/entry; i++ {
		if seen[logLine("pre", int(i))] != 1 {
			missing++
		}
	}
	if missing > 0 || twice > 0 {
		t.Errorf("of %d lines, %d are missing and %d appear more than once", writers*lines+int(prefill/entry), missing, twice)
	}
}
