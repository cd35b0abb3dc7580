package extension

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
)

// fdOf returns the descriptor number of f without switching it to
// blocking mode (as f.Fd would).
func fdOf(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var fd int
	rc.Control(func(u uintptr) { fd = int(u) })
	return fd
}

// The last lines a process writes to stderr before it dies are the ones
// that explain the crash. They must be in the log even when the reader has
// not read them by the time synaps kills and releases the process: here
// the reader is held inside the callback for the first line while the
// process writes its last line and exits, and kill runs meanwhile. Before
// the fix, release closed the pipe under the reader and the line was lost
// (the flake of TestFaultCrashAtCountsAcrossRestarts).
func TestKillKeepsLastStderrLines(t *testing.T) {
	var (
		mu      sync.Mutex
		lines   []string
		first   = make(chan struct{})
		proceed = make(chan struct{})
	)
	p, err := spawn(spawnSpec{
		argv: []string{"sh", "-c", `echo first >&2; read x; echo last >&2; echo "really last" >&2; exit 4`},
		dir:  t.TempDir(),
		env:  []string{"PATH=" + os.Getenv("PATH")},
		stderr: func(line string) {
			mu.Lock()
			lines = append(lines, line)
			mu.Unlock()
			if line == "first" {
				close(first)
				<-proceed
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	<-first
	// Let the process write its last lines and exit; the reader is still
	// held in the callback, so they wait in the pipe.
	if _, err := p.stdin.WriteString("go\n"); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	fd := fdOf(t, p.stderr)
	killed := make(chan struct{})
	go func() {
		p.kill()
		close(killed)
	}()
	// Give kill the chance to close the pipe under the reader, as it used
	// to: wait (bounded) until the descriptor is gone or kill is waiting
	// for the reader. Either way the reader is then let go.
	fdPath := "/proc/self/fd/" + strconv.Itoa(fd)
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Lstat(fdPath); err != nil {
			break
		}
	}
	close(proceed)
	<-killed
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"first", "last", "really last"}, lines); diff != "" {
		t.Errorf("stderr lines (-want +got):\n%s", diff)
	}
	if got := p.exitDescription(); got != "exited with status 4" {
		t.Errorf("exit = %q", got)
	}
}

// The host waits for the shutdown reply exactly as long as the contract
// (and so `synaps extensions test`, TestConformanceShutdownDeadlineIsTheRuntimes)
// says.
func TestHostShutdownWaitIsTheContracts(t *testing.T) {
	if defaultStop.reply != contract.MethodDeadlines[contract.MethodShutdown] {
		t.Errorf("the host waits %s for the shutdown reply, the contract says %s", defaultStop.reply, contract.MethodDeadlines[contract.MethodShutdown])
	}
}
