package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/lsp/lsptest"
	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// The command line is tested end to end with testscript: each
// testdata/script/*.txtar runs real synaps commands (this test binary,
// re-run as "synaps") in a scratch HOME, against real files and real
// extension processes.

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"synaps": func() {
			// As cmd/synaps does: a lifeline for what synaps starts, and
			// SIGTERM as a cancelled context for the whole run, so
			// scripts see the real binary's signal path.
			end, err := lifeline.Start()
			if err != nil {
				fmt.Fprintln(os.Stderr, "synaps: warning:", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
			code := Main(ctx, os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
			stop()
			end()
			os.Exit(code)
		},
		// The Go fake extension: a plugin whose command is
		// fake-extension behaves as the fake.json in its root says.
		"fake-extension": func() { os.Exit(exttest.Run()) },
		// A Go MCP server over stdio (mcptest.NewServer's tools);
		// its argument, if any, is the mode (mcptest.Run).
		"mcp-test-server": func() {
			mode := "ok"
			if len(os.Args) > 1 {
				mode = os.Args[1]
			}
			os.Exit(mcptest.Run(mode))
		},
		// The Go fake language server (lsptest.Run); its argument, if
		// any, is the mode.
		"fake-lsp": func() {
			mode := "ok"
			if len(os.Args) > 1 {
				mode = os.Args[1]
			}
			os.Exit(lsptest.Run(mode))
		},
	})
}

func TestScripts(t *testing.T) {
	examples, err := filepath.Abs("../../examples/extensions")
	if err != nil {
		t.Fatal(err)
	}
	// Plugins vendored from anthropics/claude-code (testdata/claude-code/VENDORED.md).
	claudeCodePlugins, err := filepath.Abs("testdata/claude-code")
	if err != nil {
		t.Fatal(err)
	}
	// Other agents' plugins, vendored with their licences
	// (testdata/gemini-cli/VENDORED.md, testdata/agent-plugins/VENDORED.md).
	geminiExtensions, err := filepath.Abs("testdata/gemini-cli")
	if err != nil {
		t.Fatal(err)
	}
	agentPlugins, err := filepath.Abs("testdata/agent-plugins")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("EXAMPLES", examples)
			env.Setenv("CLAUDE_CODE_PLUGINS", claudeCodePlugins)
			env.Setenv("GEMINI_EXTENSIONS", geminiExtensions)
			env.Setenv("AGENT_PLUGINS", agentPlugins)
			env.Setenv("NO_COLOR", "1")
			// pyright's language server, where .ci/run installed it
			// ("" elsewhere: scripts that need it skip).
			env.Setenv("PYRIGHT_LANGSERVER", lsptest.PyrightPath())
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
			if err := writeReadmeFixture(env.WorkDir); err != nil {
				return err
			}
			return os.MkdirAll(home, 0o755)
		},
		// [pyright]: pyright's language server is installed.
		Condition: func(cond string) (bool, error) {
			if cond == "pyright" {
				return lsptest.PyrightPath() != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":          cmdExits,
			"waitfile":       cmdWaitfile,
			"claude-consume": cmdClaudeConsume,
			"hookserve":      cmdHookserve,
			"httpserve":      cmdHTTPServe,
			"fileserve":      cmdFileServe,
		},
	})
}

// cmdExits is `exits CODE PROG ARGS...`: run PROG like exec does (stdout
// and stderr are kept for the next stdout/stderr checks) and require
// exactly exit code CODE.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: CODE %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// cmdWaitfile is `waitfile FILE`: wait until FILE exists — the sign a
// background command reached a point (a script's tool wrote it). It
// waits for the event, not for a time; the minute is only a backstop.
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	ts.Fatalf("waitfile: %s did not appear within a minute", args[0])
}

func TestVersion(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SYNAPS_BASE_DIR", "")
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"version"}, Stdio{Out: &out, Err: &errb})
	if code != 0 || !strings.HasPrefix(out.String(), "synaps "+Version) {
		t.Fatalf("code %d out %q err %q", code, out.String(), errb.String())
	}
}
