package extension

import (
	"strings"
	"testing"
)

func TestCompilesOnStart(t *testing.T) {
	for argv, want := range map[string]string{
		"go run .":                             "go run",
		"/usr/local/go/bin/go run ./cmd/ext":   "go run",
		"cargo run --release":                  "cargo run",
		"npx tsx main.ts":                      "npx",
		"uv run main.py":                       "uv run",
		"go build":                             "",
		"./ext":                                "",
		"python3 main.py go run":               "", // a plain argv: only its command counts
		"/bin/sh -c cd\x00sub && go run .":     "go run",
		"/bin/sh -c exec\x00python3 main.py":   "",
		"/bin/sh -c uv\x00sync && ./ext":       "",
		"/bin/sh -c echo\x00go\x00run\x00>&2;": "go run", // conservative: any "go run" in a shell line
	} {
		args := strings.Fields(argv)
		if args[0] == "/bin/sh" {
			args = []string{"/bin/sh", "-c", strings.ReplaceAll(strings.Join(args[2:], " "), "\x00", " ")}
		}
		if got := CompilesOnStart(args); got != want {
			t.Errorf("CompilesOnStart(%q) = %q, want %q", args, got, want)
		}
	}
}
