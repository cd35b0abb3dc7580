// Package builtin holds the tools every session has: bash, read, write,
// edit, grep, find and ls (All), one file each, and those Claude plugins
// assume that need the session's state: todo_write (Todos), web_fetch
// (WebFetch) and web_search (WebSearchTool).
//
// Conventions shared by all of them:
//   - A problem the model caused (a missing file, no match, a bad regexp, a
//     non-zero exit) is a Result with IsError set and a message that says
//     what to do next. Run returns a Go error only when ctx is cancelled.
//   - Relative paths resolve against Options.WorkDir; absolute paths and
//     "~/…" are allowed.
//   - Output is bounded (Options.MaxOutput) and says so when it was cut.
package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/tool"
)

// Source is the Spec.Source of every built-in tool.
const Source = "builtin"

// Options configures the built-in tools.
type Options struct {
	// WorkDir is the directory relative paths resolve against and the
	// directory bash runs in. Default: the process's working directory.
	WorkDir string
	// BashTimeout is how long one bash command may run before its process
	// group is killed. Default 120s. A call's "timeout" input (seconds)
	// replaces it, up to MaxBashTimeout.
	BashTimeout time.Duration
	// MaxOutput is the most bytes of output one tool call returns to the
	// model. Default 30000. bash keeps the head and the tail; the other
	// tools stop early and say how to get the rest.
	MaxOutput int
	// Env is the environment bash commands run with ("NAME=value"). nil:
	// synaps's own environment without the variables whose names look
	// secret (ScrubEnv), so the model cannot read the user's API keys;
	// the caller passes ScrubEnv's result with the user's allow list.
	Env []string
	// Files, when set, reads and writes text files for read, write and
	// edit instead of the disk: an editor that has them open (ACP's
	// fs/read_text_file and fs/write_text_file), so the model sees
	// unsaved changes and the editor sees the model's edits. Existence,
	// kind and binary checks still look at the disk. Nil: the disk.
	Files Files
	// Terminal, when set, runs bash's commands (see Terminal).
	Terminal Terminal
	// Gate, when set, judges each file grep and find reach in the
	// directory they walk, and each entry ls lists (see FileGate): one
	// the permission rules deny reading is left out, and the result says
	// so. Nil: nothing is left out.
	Gate FileGate
	// Sandbox, when set, is the policy bash's commands run confined by
	// (internal/sandbox); nil: they run as the user.
	Sandbox *sandbox.Policy
}

// Terminal runs bash's commands in someone else's terminal (an editor's,
// over ACP's terminal/*), where the user watches them run. The command
// still gets synaps's scrubbed environment, and only that. Nil: synaps
// runs them itself.
type Terminal interface {
	// Run runs argv in dir and returns its output (at most limit bytes,
	// the end kept), its exit code, and whether timeout ended it.
	Run(ctx context.Context, argv []string, dir string, limit int, timeout time.Duration) (output string, exit int, timedOut bool, err error)
}

// Files reads and writes text files on the tools' behalf (see
// Options.Files). Paths are absolute.
type Files interface {
	ReadText(ctx context.Context, path string) (string, error)
	// ReadLines is limit lines of the file from line (1-based), or
	// fewer at its end: read asks for the lines it shows, so a large
	// file is never sent whole.
	ReadLines(ctx context.Context, path string, line, limit int) (string, error)
	WriteText(ctx context.Context, path, content string) error
}

const (
	// DefaultBashTimeout is Options.BashTimeout's default.
	DefaultBashTimeout = 120 * time.Second
	// MaxBashTimeout is the longest timeout a bash call may ask for.
	MaxBashTimeout = 10 * time.Minute
	// DefaultMaxOutput is Options.MaxOutput's default, in bytes: the cap
	// the agent applies to every other tool too.
	DefaultMaxOutput = tool.DefaultMaxOutput
)

func (o Options) withDefaults() Options {
	if o.WorkDir == "" {
		if wd, err := os.Getwd(); err == nil {
			o.WorkDir = wd
		} else {
			o.WorkDir = "."
		}
	}
	if abs, err := filepath.Abs(o.WorkDir); err == nil {
		o.WorkDir = abs
	}
	if o.BashTimeout <= 0 {
		o.BashTimeout = DefaultBashTimeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	return o
}

// All returns every built-in tool, configured by opts.
func All(opts Options) []tool.Tool {
	o := opts.withDefaults()
	return []tool.Tool{
		newBash(o),
		&readTool{o},
		&writeTool{o},
		&editTool{o},
		&grepTool{o},
		&findTool{o, findMaxResults},
		&lsTool{o, lsMaxEntries},
	}
}

// resolve turns a path from the model into an absolute, clean path.
func (o Options) resolve(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(o.WorkDir, p)
	}
	return filepath.Clean(p)
}

// decode unmarshals a tool input; empty input counts as {}.
func decode(input json.RawMessage, v any) error {
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		return nil
	}
	if err := json.Unmarshal(input, v); err != nil {
		return fmt.Errorf("invalid input: %v", err)
	}
	return nil
}

// fail is a Result the model should act on.
func fail(format string, args ...any) tool.Result {
	return tool.Result{Output: fmt.Sprintf(format, args...), IsError: true}
}

// fsError describes a file-system error for the model without Go's
// "open /abs/path:" prefixes, naming the path as the model gave it.
func fsError(p string, err error) tool.Result {
	switch {
	case os.IsNotExist(err):
		return fail("%s: no such file or directory", p)
	case os.IsPermission(err):
		return fail("%s: permission denied", p)
	}
	return fail("%s: %v", p, unwrapPathError(err))
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

// sniffLen is how much of a file is checked for NUL bytes.
const sniffLen = 8 << 10

// isBinary reports whether data (the start of a file) looks binary.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0
}

// formatSize renders a byte count for people and models: 812 B, 1.5 KiB.
func formatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// cutLine shortens s to at most n bytes on a rune boundary, marking the cut.
func cutLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("… [%d more bytes]", len(s)-i)
}
