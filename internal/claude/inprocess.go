package claude

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Claude command hooks without a shell where none is needed.
//
// Most hooks' commands are small: `cat > /dev/null`, `exit 0`,
// `echo '{"decision":"approve"}'`. Starting bash for them costs more than
// the rest of the hook. A command inside a narrow subset runs in synaps
// with mvdan.cc/sh's interpreter instead, exactly as bash would run it:
//
//   - simple commands among cat (no arguments: stdin to stdout), echo
//     (no option-like argument), true, false, :, and exit [N];
//   - joined by |, && , || and ; (no background, no |&, no !);
//   - words of plain, single-quoted or double-quoted text, and $VAR /
//     ${VAR} inside double quotes (so no word splitting or globbing);
//   - redirections of stdout/stderr to /dev/null (>, >>) or to each
//     other (>&2, 2>&1).
//
// Anything else (another program, a file read or written, a command
// substitution, a glob, an assignment …) goes to `bash -c` as before.
//
// Why this may skip the sandbox: the interpreter runs unconfined inside
// synaps, but a command in the subset starts no program and opens no
// file other than /dev/null; it reads its stdin and the environment it
// was given and writes its stdout and stderr. There is nothing in it a
// hook sandbox could deny. See docs/sandbox.md.

// inProcess parses line and returns it when the interpreter can run it
// as bash would; nil otherwise.
func inProcess(line string) *syntax.File {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok || n == nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.File, *syntax.Comment:
		case *syntax.Stmt:
			ok = !n.Negated && !n.Background && !n.Coprocess && n.Cmd != nil
		case *syntax.BinaryCmd:
			ok = n.Op == syntax.AndStmt || n.Op == syntax.OrStmt || n.Op == syntax.Pipe
		case *syntax.CallExpr:
			ok = len(n.Assigns) == 0 && safeCall(n.Args)
			// The words were checked by safeCall.
		case *syntax.Redirect:
			ok = safeRedirect(n)
			return false
		case *syntax.Word:
			ok = safeWord(n)
			return false
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return f
}

// safeCall accepts the commands of the subset.
func safeCall(args []*syntax.Word) bool {
	if len(args) == 0 {
		return false
	}
	name := args[0].Lit()
	rest := args[1:]
	switch name {
	case "cat":
		return len(rest) == 0
	case "true", "false", ":":
		return true
	case "exit":
		if len(rest) == 0 {
			return true
		}
		n := rest[0].Lit()
		return len(rest) == 1 && n != "" && len(n) <= 3 && strings.Trim(n, "0123456789") == ""
	case "echo":
		for _, w := range rest {
			if strings.HasPrefix(wordStart(w), "-") {
				return false
			}
		}
		return true
	}
	return false
}

// wordStart is the literal text a word starts with, quotes removed; a
// word starting with an expansion starts with "-" here, to be refused:
// it may expand to an option.
func wordStart(w *syntax.Word) string {
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		return p.Value
	case *syntax.SglQuoted:
		return p.Value
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return ""
		}
		switch q := p.Parts[0].(type) {
		case *syntax.Lit:
			if q.Value != "" {
				return q.Value
			}
		case *syntax.ParamExp:
			// synaps sets these to absolute paths: never an option.
			switch q.Param.Value {
			case "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR":
				return "/"
			}
		}
	}
	return "-"
}

// safeWord accepts plain text, quoted text, and simple parameter
// expansions inside double quotes.
func safeWord(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			// Globs, tildes, braces and escapes are bash's to expand.
			if strings.ContainsAny(p.Value, "*?[]~{}\\") {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return false
			}
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					if strings.ContainsAny(q.Value, "\\`") {
						return false
					}
				case *syntax.ParamExp:
					if !simpleParam(q) {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// simpleParam is $NAME or ${NAME} of an ordinary variable.
func simpleParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil || p.Param == nil {
		return false
	}
	name := p.Param.Value
	if name == "" || !(name[0] == '_' || name[0] >= 'A' && name[0] <= 'Z' || name[0] >= 'a' && name[0] <= 'z') {
		return false // $1, $?, $$, $RANDOM-like specials are bash's
	}
	switch name {
	case "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "BASH_VERSION", "EPOCHREALTIME", "EPOCHSECONDS", "PPID", "UID", "EUID", "SHLVL", "PWD", "OLDPWD", "HOSTNAME", "BASH", "SHELLOPTS", "BASHOPTS", "IFS", "PS4", "OPTIND", "GROUPS", "HOSTTYPE", "MACHTYPE", "OSTYPE":
		return false
	}
	return strings.Trim(name, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == ""
}

// safeRedirect is stdout or stderr to /dev/null, or one to the other.
func safeRedirect(r *syntax.Redirect) bool {
	if r.N != nil && r.N.Value != "1" && r.N.Value != "2" {
		return false
	}
	if r.Hdoc != nil || r.Word == nil {
		return false
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut:
		return r.Word.Lit() == "/dev/null"
	case syntax.DplOut:
		w := r.Word.Lit()
		return w == "1" || w == "2"
	}
	return false
}

// runInProcess runs f as bash would have run the hook's command: in
// c.Dir, with c.Env, stdin as its input. ok is false when the
// interpreter could not be set up (a missing directory): the caller then
// runs bash, which says what is wrong.
func runInProcess(ctx context.Context, c Command, f *syntax.File, stdin []byte) (r Run, ok bool) {
	var out, errOut capped
	runner, err := interp.New(
		interp.Env(expand.ListEnviron(c.Env...)),
		interp.Dir(c.Dir),
		interp.StdIO(bytes.NewReader(stdin), &out, &errOut),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			return func(ctx context.Context, args []string) error {
				// Only cat without arguments reaches here (inProcess
				// let nothing else through).
				hc := interp.HandlerCtx(ctx)
				if args[0] != "cat" || len(args) != 1 {
					return errors.New("in-process hook: unexpected command " + args[0])
				}
				if hc.Stdin != nil {
					_, err := io.Copy(hc.Stdout, hc.Stdin)
					return err
				}
				return nil
			}
		}),
	)
	if err != nil {
		return Run{}, false
	}
	err = runner.Run(ctx, f)
	r = Run{Stdout: out.String(), Stderr: errOut.String(), StdoutCut: out.dropped, StderrCut: errOut.dropped, Timeout: c.Timeout}
	var es interp.ExitStatus
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.TimedOut = true
	case errors.As(err, &es):
		r.ExitCode = int(es)
	case err != nil:
		r.StartErr = err
	}
	return r, true
}
