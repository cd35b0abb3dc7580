package exttest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"
)

// probe runs one of Spec.Probe's actions at start and says on stderr how
// it went ("fake: probe read PATH: ok" or the error), so a test sees
// what the sandbox let the extension do:
//
//   - read:PATH, write:PATH (creates or truncates it)
//   - connect:HOST:PORT (a TCP connection)
//   - child-read:PATH: a child process (sh -c cat) reads it
//   - ptrace-parent: attach to the parent (synaps)
func probe(action string) {
	kind, arg, _ := strings.Cut(action, ":")
	var err error
	switch kind {
	case "read":
		_, err = os.ReadFile(arg)
	case "write":
		err = os.WriteFile(arg, []byte("probe\n"), 0o644)
	case "connect":
		var c net.Conn
		if c, err = net.DialTimeout("tcp", arg, 2*time.Second); err == nil {
			c.Close()
		}
	case "child-read":
		var out []byte
		out, err = exec.Command("sh", "-c", `cat "$1" >/dev/null`, "sh", arg).CombinedOutput()
		if err != nil {
			err = fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
		}
	case "ptrace-parent":
		err = ptraceParent()
	default:
		err = fmt.Errorf("unknown probe %q", kind)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake: probe %s: %v\n", action, err)
		return
	}
	fmt.Fprintf(os.Stderr, "fake: probe %s: ok\n", action)
}
