package plugin

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	shellpkg "mvdan.cc/sh/v3/shell"
	"mvdan.cc/sh/v3/syntax"
)

// shellOnlyBuiltins are first words that only a shell can run: with one of
// them the entry point goes through /bin/sh.
var shellOnlyBuiltins = []string{
	".", "source", "exec", "cd", "eval", "export", "set", "unset", "alias",
	"trap", "ulimit", "umask", "readonly", "shift", "builtin", "command", "wait",
}

// parseEntryPoint parses an entry point as shell. The parser comes from a
// third-party module; a panic in it on odd input becomes an error rather
// than taking the runtime down.
func parseEntryPoint(s string) (f *syntax.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("shell parser failed: %v", r)
		}
	}()
	f, err = syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) == 0 {
		return nil, errors.New("no command in it")
	}
	return f, nil
}

// needsShell reports whether a parsed entry point uses syntax that only a
// shell can run: several commands (;, &&, ||, newlines), pipes, redirects,
// subshells and other compound commands, variable assignments, command or
// process substitution, unquoted globs or braces, or a shell builtin as the
// command.
func needsShell(f *syntax.File) bool {
	if len(f.Stmts) != 1 {
		return true
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 {
		return true
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return true
	}
	if first := call.Args[0].Lit(); slices.Contains(shellOnlyBuiltins, first) {
		return true
	}
	shell := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ExtGlob:
			shell = true
		case *syntax.DblQuoted:
			// Inside double quotes globs are literal; substitutions are
			// still found by walking into the parts.
			for _, part := range n.Parts {
				syntax.Walk(part, func(m syntax.Node) bool {
					switch m.(type) {
					case *syntax.CmdSubst, *syntax.ProcSubst:
						shell = true
					}
					return !shell
				})
			}
			return false
		case *syntax.SglQuoted:
			return false
		case *syntax.Lit:
			if hasUnescapedGlob(n.Value) {
				shell = true
			}
		}
		return !shell
	})
	return shell
}

// hasUnescapedGlob reports whether an unquoted literal holds a glob
// metacharacter or an opening brace not escaped with a backslash.
func hasUnescapedGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		case '{':
			// Brace expansion ({a,b}, {1..9}) is bash-only and, unbounded,
			// can build huge argvs; leave it to /bin/sh, which keeps it literal.
			return true
		}
	}
	return false
}

// Argv turns the launch form into an argv for the spawner.
//
// For command + args, argv is Command followed by Args, as given: the
// spawner resolves a bare name via PATH and a relative path against the
// plugin root.
//
// An entry point is split with shell word rules (mvdan.cc/sh/v3/shell.Fields):
// quotes are removed, $VAR and ${VAR} are expanded with getenv (nil means
// os.Getenv; empty counts as unset), ~ becomes getenv("HOME"). The result runs
// directly, with no shell in between. When the line needs a real shell —
// several commands, pipes, &&, ;, redirects, subshells, assignments, command
// substitution, unquoted globs, a shell builtin such as cd or exec, or
// anything shell.Fields cannot expand — argv is {"/bin/sh", "-c", EntryPoint}
// and shell is true; the shell then expands variables from the child's own
// (scrubbed) environment.
func (e *ExtensionManifest) Argv(getenv func(string) string) (argv []string, shell bool, err error) {
	if e == nil {
		return nil, false, errors.New("no extension object in the manifest")
	}
	if e.Command != "" {
		if e.EntryPoint != "" {
			return nil, false, errors.New(`both "entry_point" and "command" are set`)
		}
		return append([]string{e.Command}, e.Args...), false, nil
	}
	if strings.TrimSpace(e.EntryPoint) == "" {
		return nil, false, errors.New(`neither "entry_point" nor "command" is set`)
	}
	f, err := parseEntryPoint(e.EntryPoint)
	if err != nil {
		return nil, false, fmt.Errorf("entry_point %q: %w", e.EntryPoint, err)
	}
	if needsShell(f) {
		return []string{"/bin/sh", "-c", e.EntryPoint}, true, nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	fields, err := expandFields(e.EntryPoint, getenv)
	if err != nil {
		return []string{"/bin/sh", "-c", e.EntryPoint}, true, nil
	}
	if len(fields) == 0 {
		return nil, false, fmt.Errorf("entry_point %q expands to no command (is a variable it names unset?)", e.EntryPoint)
	}
	return fields, false, nil
}

// expandFields wraps shell.Fields, turning a panic in the third-party
// expander into an error.
func expandFields(s string, getenv func(string) string) (fields []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			fields, err = nil, fmt.Errorf("shell expansion failed: %v", r)
		}
	}()
	return shellpkg.Fields(s, getenv)
}
