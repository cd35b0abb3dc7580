package command

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// Env is what expanding a command needs from the session.
type Env struct {
	// WorkDir is the project: @path is read from it.
	WorkDir string
	// Bash runs one !`cmd` line as the session runs the model's bash
	// calls — the hook chain (a guard sees a bash call), the permission
	// rules and mode (plan mode refuses it; in -p, what would be asked is
	// refused), the bash tool — and returns what goes in its place: the
	// output, or why it did not run. A command file is text anyone can
	// ship, and its line holds what the user or the model typed: it gets
	// no way around the guards. Nil: no line runs, each says so.
	Bash func(ctx context.Context, line string) string
	// DenyRead says why the file an @path names may not be included (""
	// when it may): the Read rules hold for a command's @path as for the
	// read tool. Nil: every file may be.
	DenyRead func(path string) string
}

// bang is !`command`, run before the prompt is sent, or a fenced block
// opened with ```! (Claude Code's multi-line form: its lines run as one
// bash command, as ralph-wiggum's /ralph-loop runs its setup script).
// Submatch 1 is the inline command, 2 the block's.
var bang = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("!`([^`]+)`|(?ms:^```![ \t]*\n(.*?)\n?^```[ \t]*$)")
})

// positional is $1 … $9.
var positional = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$([1-9])`) })

// mention is @path (a file of the project), at the start or after a space.
var mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)@([^\s]+)`) })

// maxInclude bounds one @file's text in a prompt.
const maxInclude = 256 << 10

// Expand turns the command and its arguments into the prompt, as Claude
// Code does: $ARGUMENTS and $1…$9 substituted, then each !`cmd` run
// (through Env.Bash) and its output put in its place ("(Bash completed
// with no output)" when empty; its error text when it fails), and
// "ARGUMENTS: …" appended when the body uses neither and arguments were
// given. Each @path that names a file in the project is appended in a
// <file> block, unless the Read rules deny it (then a line says so).
//
// In a !`cmd` line the arguments are data, never code: each is quoted
// for the shell where it stands (outside quotes, inside "…" or '…'), and
// an unquoted $ARGUMENTS is split into its words, each quoted, as the
// shell splits an unquoted variable: with "-n 3", the line "git log
// $ARGUMENTS" runs "git log -n 3", and with "x; touch pwned", "echo
// $ARGUMENTS" echoes it. The !`cmd` lines are those of the file: an argument that holds
// !`…` is text.
func (c *Command) Expand(ctx context.Context, args string, env Env) string {
	if c.Gemini {
		return c.expandGemini(ctx, args, env)
	}
	fields := strings.Fields(args)
	hasArgs := strings.Contains(c.body, "$ARGUMENTS") || positional().MatchString(c.body)
	var body strings.Builder
	last := 0
	src := c.PluginVars.expand(c.body)
	for _, m := range bang().FindAllStringSubmatchIndex(src, -1) {
		body.WriteString(substitute(src[last:m[0]], args, fields))
		line := ""
		if m[2] >= 0 {
			line = src[m[2]:m[3]]
		} else {
			line = src[m[4]:m[5]]
		}
		// The arguments are in place before the commands run, so that
		// !`gh pr view $1` sees them.
		body.WriteString(run(ctx, quoteArgs(line, args, fields), env))
		last = m[1]
	}
	body.WriteString(substitute(src[last:], args, fields))
	text := strings.TrimSpace(body.String())
	if !hasArgs && strings.TrimSpace(args) != "" {
		text += "\n\nARGUMENTS: " + args
	}
	var files strings.Builder
	seen := map[string]bool{}
	for _, m := range mention().FindAllStringSubmatch(text, -1) {
		p := strings.TrimRight(m[2], ".,;:)")
		if seen[p] {
			continue
		}
		seen[p] = true
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(env.WorkDir, p)
		}
		if env.DenyRead != nil {
			if why := env.DenyRead(full); why != "" {
				if _, err := os.Lstat(full); err == nil {
					fmt.Fprintf(&files, "\n\n(@%s is not included: %s)", p, why)
				}
				continue
			}
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
	return text + files.String()
}

// substitute puts the arguments into prompt text, as written.
func substitute(text, args string, fields []string) string {
	text = strings.ReplaceAll(text, "$ARGUMENTS", args)
	return positional().ReplaceAllStringFunc(text, func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		if n <= len(fields) {
			return fields[n-1]
		}
		return ""
	})
}

// run runs one !`cmd` line through env.Bash and returns what goes in its
// place.
func run(ctx context.Context, line string, env Env) string {
	if env.Bash == nil {
		return fmt.Sprintf("(%s was not run: nothing here runs a command's !`…` lines)", line)
	}
	text := strings.TrimRight(env.Bash(ctx, line), "\n")
	if text == "" {
		return "(Bash completed with no output)"
	}
	return text
}
