package extension

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// InitTimeoutReason explains an initialize that got no response within
// its deadline, for the host's status and for `synaps extensions test`.
// The usual cause differs by launch command: a command that compiles the
// program before starting it (go run on a cold build cache) is still
// compiling, and framing advice would send its author the wrong way;
// otherwise the response is stuck in a buffer or never framed.
func InitTimeoutReason(argv []string, deadline time.Duration) string {
	msg := fmt.Sprintf("no initialize response within %s", deadline)
	if tool := CompilesOnStart(argv); tool != "" {
		return msg + fmt.Sprintf(": `%s` builds the program before it starts, which can take longer than that (a cold build cache); build it once and start the binary instead — for Go, `go build -o ext .` in the plugin directory and \"command\": \"./ext\" in plugin.json", tool)
	}
	return msg + ": the process is running but sent no response; check that it flushes stdout after each write and ends each header with \\r\\n\\r\\n"
}

// compileRunners are launch commands that build before they run.
var compileRunners = [][]string{
	{"go", "run"}, {"cargo", "run"}, {"dotnet", "run"}, {"swift", "run"},
	{"mvn"}, {"gradle"}, {"npx"}, {"bunx"}, {"uv", "run"},
}

// CompilesOnStart returns the build-then-run command argv starts with
// ("go run"), also inside a /bin/sh -c line, or "".
func CompilesOnStart(argv []string) string {
	words := argv
	if len(argv) == 3 && argv[0] == "/bin/sh" && argv[1] == "-c" {
		words = strings.Fields(argv[2])
	}
	for i := range words {
		for _, r := range compileRunners {
			if i+len(r) > len(words) || filepath.Base(words[i]) != r[0] {
				continue
			}
			if len(r) == 1 || words[i+1] == r[1] {
				return strings.Join(r, " ")
			}
		}
		if len(words) == len(argv) {
			break // a plain argv: only its command counts
		}
	}
	return ""
}
