package command

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// Env is what expanding a command needs from the session.
type Env struct {
	// WorkDir is the project: !`cmd` runs there, @path is read from it.
	WorkDir string
	// Environ is the environment of !`cmd` (synaps's scrubbed one).
	Environ []string
	// Timeout bounds each !`cmd`; default 2 minutes.
	Timeout time.Duration
}

// bang is !`command`, run before the prompt is sent.
var bang = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("!`([^`]+)`") })

// positional is $1 … $9.
var positional = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$([1-9])`) })

// mention is @path (a file of the project), at the start or after a space.
var mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)@([^\s]+)`) })

// maxInclude bounds one @file's text in a prompt.
const maxInclude = 256 << 10

// Expand turns the command and its arguments into the prompt, as Claude
// Code does: the arguments substituted, then !`cmd` output in place ("(Bash completed with no output)"
// when empty; its error text when it fails), $ARGUMENTS and $1…$9, and
// "ARGUMENTS: …" appended when the body uses neither and arguments were
// given. Each @path that names a file in the project is appended in
// a <file> block.
func (c *Command) Expand(ctx context.Context, args string, env Env) string {
	fields := strings.Fields(args)
	body := c.body
	hasArgs := strings.Contains(body, "$ARGUMENTS") || positional().MatchString(body)
	body = strings.ReplaceAll(body, "$ARGUMENTS", args)
	body = positional().ReplaceAllStringFunc(body, func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		if n <= len(fields) {
			return fields[n-1]
		}
		return ""
	})
	// The arguments are in place before the commands run, so that
	// !`gh pr view $1` sees them.
	body = bang().ReplaceAllStringFunc(body, func(m string) string {
		return run(ctx, bang().FindStringSubmatch(m)[1], env)
	})
	body = strings.TrimSpace(body)
	if !hasArgs && strings.TrimSpace(args) != "" {
		body += "\n\nARGUMENTS: " + args
	}
	var files strings.Builder
	seen := map[string]bool{}
	for _, m := range mention().FindAllStringSubmatch(body, -1) {
		p := strings.TrimRight(m[2], ".,;:)")
		if seen[p] {
			continue
		}
		seen[p] = true
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(env.WorkDir, p)
		}
		data, cut, err := safefile.Read(full, maxInclude)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue // not a text file: the model can look it up itself
		}
		if cut {
			data = append(data, []byte("\n… (cut: the file is larger)")...)
		}
		fmt.Fprintf(&files, "\n\n<file path=%q>\n%s\n</file>", p, strings.TrimRight(string(data), "\n"))
	}
	return body + files.String()
}

// run runs one !`cmd` in the project and returns what it printed.
func run(ctx context.Context, line string, env Env) string {
	timeout := env.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	shell := "sh"
	if p, err := exec.LookPath("bash"); err == nil {
		shell = p
	}
	cmd := exec.CommandContext(ctx, shell, "-c", line)
	cmd.Dir, cmd.Env = env.WorkDir, env.Environ
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	text := strings.TrimRight(string(out), "\n")
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Sprintf("(%s did not finish within %s)", line, timeout)
	case err != nil && text == "":
		return fmt.Sprintf("(%s failed: %v)", line, err)
	case text == "":
		return "(Bash completed with no output)"
	}
	return text
}
