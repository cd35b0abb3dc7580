package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The command line is tested end to end with testscript: each
// testdata/script/*.txtar runs real synaps commands (this test binary,
// re-run as "synaps") in a scratch HOME, against real files and real
// extension processes.

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"synaps": func() {
			os.Exit(Main(context.Background(), os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
		},
	})
}

func TestScripts(t *testing.T) {
	examples, err := filepath.Abs("../../examples/extensions")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("EXAMPLES", examples)
			env.Setenv("NO_COLOR", "1")
			for _, k := range []string{"SYNAPS_BASE_DIR", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "SYNAPS_EXTENSIONS_TRACE"} {
				env.Setenv(k, "")
			}
			// Go extensions (`go run .`) compile with the real caches.
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
				if out, err := exec.Command("go", "env", k).Output(); err == nil {
					env.Setenv(k, strings.TrimSpace(string(out)))
				}
			}
			if err := writeTutorialScripts(env.WorkDir); err != nil {
				return err
			}
			if err := writeGuideFixture(env.WorkDir); err != nil {
				return err
			}
			return os.MkdirAll(home, 0o755)
		},
	})
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"version"}, Stdio{Out: &out, Err: &errb})
	if code != 0 || !strings.HasPrefix(out.String(), "synaps "+Version) {
		t.Fatalf("code %d out %q err %q", code, out.String(), errb.String())
	}
}
