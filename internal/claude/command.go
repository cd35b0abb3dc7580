package claude

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/procgroup"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// Command is one hook command to run, as Claude Code runs it: through the
// shell, in the project directory, the payload on stdin.
type Command struct {
	// Line is the command as written; the shell expands
	// ${CLAUDE_PLUGIN_ROOT} and the like from Env.
	Line string
	// Args, when set, is the exec form: Line is the program, run with
	// Args, no shell (see argv). Shell is the handler's "bash" or
	// "powershell".
	Args  []string
	Shell string
	Dir   string
	// Env is the whole environment of the hook (see HookEnv).
	Env     []string
	Timeout time.Duration
	// Policy, when set, confines the hook (internal/sandbox): its
	// plugin's policy, or the default one for a settings file's hook.
	Policy *sandbox.Policy
}

// maxCapture bounds what is kept of a hook's stdout and stderr; a hook
// that prints more is cut, not allowed to fill memory.
const maxCapture = 1 << 20

// Exec runs the command with stdin and waits for it, at most Timeout (or
// until ctx ends). A hook that runs too long is killed with everything it
// started (its process group).
func Exec(ctx context.Context, c Command, stdin []byte) Run {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	// A command bash is not needed for runs in synaps (inprocess.go).
	if c.Args == nil && (c.Shell == "" || c.Shell == "bash") && !forceShell {
		if f := inProcess(c.Line); f != nil {
			if r, ok := runInProcess(ctx, c, f, stdin); ok {
				return r
			}
		}
	}
	return execShell(ctx, c, stdin)
}

// forceShell makes every command go to the shell: tests compare the two
// ways with it.
var forceShell bool

// execShell runs the command as a process: bash -c, or the exec form.
func execShell(ctx context.Context, c Command, stdin []byte) Run {
	prog, args, err := c.argv()
	if err != nil {
		return Run{StartErr: err, Timeout: c.Timeout}
	}
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut capped
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = procgroup.Group() // a timeout kills what the hook started too
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process) }
	// A hook's background child holding the pipes open must not hold
	// synaps: after the hook exits, its output is read for 1 s more.
	cmd.WaitDelay = time.Second
	var refused []string // the proxy's refusals
	var mu sync.Mutex
	if c.Policy != nil {
		// Start confines and starts in one step: a hook runs on every
		// call, so it takes the fast path (confined on a thread of
		// synaps, no helper re-exec) wherever the policy allows.
		release, serr := sandbox.Start(cmd, *c.Policy, func(line string) {
			mu.Lock()
			refused = append(refused, line)
			mu.Unlock()
		})
		if serr != nil {
			return Run{StartErr: serr, Timeout: c.Timeout}
		}
		defer release()
		err = cmd.Wait()
	} else {
		err = cmd.Run()
	}
	r := Run{Stdout: out.String(), Stderr: errOut.String(), StdoutCut: out.dropped, StderrCut: errOut.dropped, Timeout: c.Timeout}
	if c.Policy != nil {
		// What the sandbox refused is said where the hook's own error
		// goes: the model reads a blocking hook's stderr, the user a
		// failing one's.
		mu.Lock()
		said := append(refused, c.Policy.Blocked(c.Dir, r.Stderr)...)
		mu.Unlock()
		if len(said) > 0 {
			if r.Stderr != "" && !strings.HasSuffix(r.Stderr, "\n") {
				r.Stderr += "\n"
			}
			r.Stderr += strings.Join(said, "\n")
		}
	}
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.TimedOut = true
	case errors.As(err, &ee):
		r.ExitCode = ee.ExitCode()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		r.StartErr = err
	}
	return r
}

// capped keeps the first maxCapture bytes written to it and counts the
// rest. It has only Write: a bytes.Buffer embedded would bring its
// ReadFrom, which io.Copy (os/exec's pipe copier) prefers over Write, so
// the cap would never apply — a hook printing 400 MB took synaps past
// 1.2 GB.
type capped struct {
	buf     bytes.Buffer
	dropped int64
}

func (c *capped) Write(p []byte) (int, error) {
	room := maxCapture - c.buf.Len()
	keep := min(len(p), max(room, 0))
	c.buf.Write(p[:keep])
	c.dropped += int64(len(p) - keep)
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

// HookEnv is the environment Claude Code gives a hook, on top of base (the
// scrubbed environment synaps gives every child): the project directory,
// the session id, the plugin's root and data directories when the hook
// comes from a plugin, and on SessionStart the file where it may append
// `export` lines for later commands.
func HookEnv(base []string, projectDir, sessionID, pluginRoot, pluginData, envFile string) []string {
	env := append([]string(nil), base...)
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("CLAUDE_PROJECT_DIR", projectDir)
	add("CLAUDE_CODE_SESSION_ID", sessionID)
	add("CLAUDECODE", "1")
	add("CLAUDE_CODE_ENTRYPOINT", "synaps")
	add("CLAUDE_PLUGIN_ROOT", pluginRoot)
	add("CLAUDE_PLUGIN_DATA", pluginData)
	add("CLAUDE_ENV_FILE", envFile)
	return env
}
