package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/procgroup"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"github.com/synaps-cli/synaps/internal/tool"
)

// bashTool runs a shell command.
//
// The command runs as `bash -c` (sh when bash is absent) in its own session
// and so its own process group (Setsid rather than just Setpgid: the
// session has no controlling terminal, so a command that opens /dev/tty,
// like a password prompt, fails at once instead of stopping on SIGTTIN or
// writing over the TUI). Stdin is /dev/null; stdout and stderr share one
// pipe so their output interleaves as written. When the shell exits, times out or
// ctx is cancelled, the whole group is sent SIGKILL: nothing the command
// left running in the background survives it (a process that wants to must
// leave the group, e.g. with setsid, and redirect its output). If synaps
// itself dies first, the group is killed by the lifeline sentinel, and on
// Linux the shell by its parent-death signal (internal/lifeline).
type bashTool struct {
	o     Options
	shell string
}

func newBash(o Options) *bashTool {
	shell := "sh"
	if p, err := exec.LookPath("bash"); err == nil {
		shell = p
	}
	return &bashTool{o: o, shell: shell}
}

var bashSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"command": {"type": "string", "description": "The shell command to run (bash -c)."},
		"timeout": {"type": "number", "exclusiveMinimum": 0, "description": "Time limit in seconds (default 120, at most 600)."}
	},
	"required": ["command"],
	"additionalProperties": false
}`)

func (b *bashTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "bash",
		Source:      Source,
		Description: "Run a shell command with bash -c in the working directory and return its combined stdout and stderr. " +
			"Stdin is empty, so interactive commands fail; pass flags such as --yes or --no-pager instead. " +
			"A non-zero exit status is reported as an error. The command is killed, with everything it started, " +
			"when it exceeds its timeout (default 120 s, at most 600 s) and when it exits, so do not leave servers " +
			"running in the background. Long output keeps its beginning and end. " +
			"Environment variables whose names contain KEY, SECRET, TOKEN or PASSWORD are not passed to the command " +
			"(the user can allow one by name with tool_env_allow in the synaps config). " +
			"Prefer the read, grep, find and ls tools for looking at files.",
		InputSchema: bashSchema,
	}
}

func (b *bashTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Command *string  `json:"command"`
		Timeout *float64 `json:"timeout"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
		return fail("command is required"), nil
	}
	timeout := b.timeout(in.Timeout)
	if err := ctx.Err(); err != nil {
		return tool.Result{}, err
	}
	if b.o.Terminal != nil {
		return b.inTerminal(ctx, *in.Command, timeout)
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		return fail("cannot start command: %v", err), nil
	}
	cmd := exec.Command(b.shell, "-c", *in.Command)
	cmd.Dir = b.o.WorkDir
	cmd.Env = b.o.env()
	cmd.Stdout = pw // *os.File: no copying goroutine, so Wait returns when the shell exits
	cmd.Stderr = pw
	cmd.SysProcAttr = procgroup.Session() // pgid = sid = pid
	var netLog sandboxLog
	release := func() {}
	if p := b.o.Sandbox; p != nil {
		// Start confines and starts in one step: on its fast path the
		// shell is forked from a thread confined for it alone, without
		// re-running synaps as the sandbox helper.
		var err error
		if release, err = sandbox.Start(cmd, *p, netLog.add); err != nil {
			pr.Close()
			pw.Close()
			return fail("%v", err), nil
		}
	} else if err := sandbox.StartPlain(cmd); err != nil {
		pr.Close()
		pw.Close()
		return fail("cannot start command: %v", err), nil
	}
	backgrounded := false // then the background goroutine releases
	defer func() {
		if !backgrounded {
			release()
		}
	}()
	pw.Close()
	pgid := cmd.Process.Pid
	// Should synaps die before the group is killed below, the sentinel
	// kills it: the shell's children too, not only the shell.
	unguard := lifeline.Guard(pgid)

	out := newHeadTail(b.o.MaxOutput)
	sw := &switchWriter{w: out}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		io.Copy(sw, pr) //nolint:errcheck // a read error just ends the output
	}()
	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()

	toBackground, bg, unwatch := watch(ctx)
	defer unwatch()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	timedOut, cancelled := false, false
	select {
	case <-toBackground:
		f, id, err := bg.outputFile()
		if err != nil {
			procgroup.Kill(cmd.Process)
			<-waitDone
			unguard()
			return fail("%v", err), nil
		}
		backgrounded = true
		sw.to(f, out)
		go func() {
			werr := <-waitDone
			procgroup.Kill(cmd.Process)
			unguard()
			select {
			case <-readDone:
			case <-time.After(time.Second):
			}
			pr.Close()
			<-readDone
			end := "exit status 0"
			if werr != nil {
				end = werr.Error()
			}
			sw.Write([]byte(fmt.Sprintf("\n[shell %s ended: %s]\n", id, end))) //nolint:errcheck
			f.Close()
			release()
		}()
		return tool.Result{Output: backgroundResult(id, pgid, f.Name())}, nil
	case waitErr = <-waitDone:
	case <-timer.C:
		timedOut = true
		procgroup.Kill(cmd.Process)
		waitErr = <-waitDone
	case <-ctx.Done():
		cancelled = true
		procgroup.Kill(cmd.Process)
		waitErr = <-waitDone
	}
	// Whatever the shell left in its group dies with it; once the group is
	// gone the pipe reaches EOF. A process that escaped the group (setsid)
	// but still holds the pipe gets a moment, then the pipe is closed.
	procgroup.Kill(cmd.Process)
	unguard()
	select {
	case <-readDone:
	case <-time.After(time.Second):
		pr.Close()
		<-readDone
	}
	pr.Close()

	if cancelled {
		return tool.Result{}, ctx.Err()
	}
	text := out.String()
	if p := b.o.Sandbox; p != nil {
		// What the sandbox refused, in words the model and the user read,
		// with the setting that allows it.
		for _, line := range append(netLog.lines(), p.Blocked(b.o.WorkDir, text)...) {
			text = appendNote(text, line)
		}
	}
	var res tool.Result
	switch {
	case timedOut:
		res = tool.Result{IsError: true, Output: appendNote(text,
			fmt.Sprintf("command timed out after %s and was killed; pass a larger \"timeout\" (seconds, at most %d) if it needs longer",
				seconds(timeout), int(MaxBashTimeout.Seconds())))}
	case waitErr != nil:
		var ee *exec.ExitError
		if errors.As(waitErr, &ee) {
			res = tool.Result{IsError: true, Output: appendNote(text, ee.ProcessState.String())}
		} else {
			res = tool.Result{IsError: true, Output: appendNote(text, waitErr.Error())}
		}
	default:
		if text == "" {
			text = "(no output)"
		}
		res = tool.Result{Output: text}
	}
	return res, nil
}

// timeout is the time limit of one call: the "timeout" input in seconds
// when given (at most MaxBashTimeout), else Options.BashTimeout.
func (b *bashTool) timeout(secs *float64) time.Duration {
	if secs == nil || *secs <= 0 {
		return b.o.BashTimeout
	}
	if *secs >= MaxBashTimeout.Seconds() {
		return MaxBashTimeout
	}
	return time.Duration(*secs * float64(time.Second))
}

func appendNote(text, note string) string {
	if text == "" {
		return note
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + note
}

// seconds renders d as "0.2s", "120s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// headTail keeps the first and last bytes written to it, counting what it
// drops in between, so a huge output costs bounded memory.
type headTail struct {
	max     int
	head    []byte
	tail    []byte // ring buffer of the last max-len(head) bytes once head is full
	tailPos int    // next write position in tail when it is full
	total   int64
}

func newHeadTail(max int) *headTail {
	return &headTail{max: max}
}

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += int64(n)
	headMax := h.max / 2
	if len(h.head) < headMax {
		k := min(headMax-len(h.head), len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	tailMax := h.max - headMax
	for len(p) > 0 {
		if len(h.tail) < tailMax {
			k := min(tailMax-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			continue
		}
		if len(p) >= tailMax {
			copy(h.tail, p[len(p)-tailMax:])
			h.tailPos = 0
			break
		}
		k := copy(h.tail[h.tailPos:], p)
		p = p[k:]
		h.tailPos = (h.tailPos + k) % tailMax
	}
	return n, nil
}

// String returns the output, with a "…[N bytes truncated]…" note where the
// middle was dropped. The cut avoids splitting UTF-8 sequences.
func (h *headTail) String() string {
	tail := append(append([]byte(nil), h.tail[h.tailPos:]...), h.tail[:h.tailPos]...)
	kept := int64(len(h.head) + len(tail))
	if kept == h.total {
		return string(h.head) + string(tail)
	}
	head := trimPartialEnd(h.head)
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	dropped := h.total - int64(len(head)+len(tail))
	return fmt.Sprintf("%s\n…[%d bytes truncated]…\n%s", head, dropped, tail)
}

// trimPartialEnd drops an incomplete UTF-8 sequence at the end of b.
func trimPartialEnd(b []byte) []byte {
	i := len(b) - 1
	for i >= 0 && len(b)-i < utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(b[i:]) {
		return b[:i]
	}
	return b
}

// inTerminal runs the command in the editor's terminal: through env -i,
// so that it gets synaps's scrubbed environment and nothing of the
// editor's (its secrets included).
func (b *bashTool) inTerminal(ctx context.Context, command string, timeout time.Duration) (tool.Result, error) {
	argv := append([]string{"env", "-i"}, b.o.env()...)
	argv = append(argv, b.shell, "-c", command)
	text, code, timedOut, err := b.o.Terminal.Run(ctx, argv, b.o.WorkDir, b.o.MaxOutput, timeout)
	switch {
	case ctx.Err() != nil:
		return tool.Result{}, ctx.Err()
	case err != nil:
		return fail("the editor's terminal could not run it: %v", err), nil
	case timedOut:
		return tool.Result{IsError: true, Output: appendNote(text,
			fmt.Sprintf("command timed out after %s and was killed; pass a larger \"timeout\" (seconds, at most %d) if it needs longer",
				seconds(timeout), int(MaxBashTimeout.Seconds())))}, nil
	case code != 0:
		return tool.Result{IsError: true, Output: appendNote(text, fmt.Sprintf("exit status %d", code))}, nil
	case text == "":
		text = "(no output)"
	}
	return tool.Result{Output: text}, nil
}
