package permission

// This file turns a bash command line into what Bash rules judge: every
// simple command the line would run, wherever it sits (pipelines, chains,
// subshells, groups, conditions, loops, command and process
// substitutions, function bodies), with quoting removed and the wrappers
// that run their arguments seen through (env, sudo, bash -c, eval, find
// -exec, …); and the files it redirects output into. A rule is matched
// against that, never against the raw text, so `\rm`, `"rm"`, `/bin/rm`,
// `(rm …)` and `bash -c 'rm …'` are all rm to a Bash(rm:*) rule. What the
// line would run but cannot be known before it runs (a command named by a
// variable, eval of a variable) is recorded as unknown: it matches every
// deny rule and no allow rule that names a command.

import (
	"path"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shellCmd is one simple command a line would run.
type shellCmd struct {
	// words are the command's words with quotes and escapes removed;
	// arguments that expand ($HOME, $(date), *.go) stay as written.
	words []string
	// wrapper: the command only runs the command after it (env, time,
	// nice, nohup, timeout, command, exec, bash -c, eval), which is a
	// shellCmd of its own. An allow rule need not cover the wrapper, only
	// what it runs; a deny rule matches either.
	wrapper bool
	// assigns are the assignments written before it ("PATH=/x"): an
	// allow rule must cover them too, since they can change what runs.
	assigns string
	// moreArgs: it runs with arguments that are not on the line (xargs
	// appends what it reads), so only a prefix or wildcard rule can allow
	// it.
	moreArgs bool
	// open: a word expands into words not on the line ($X, $(cmd),
	// unquoted globs), so its arguments are not all known (readonly.go).
	open bool
}

// text is the command as rules see it: its words joined by spaces.
func (c shellCmd) text() string { return strings.Join(c.words, " ") }

// allowText is the command as allow rules see it: with the assignments
// before it.
func (c shellCmd) allowText() string {
	if c.assigns == "" {
		return c.text()
	}
	return c.assigns + " " + c.text()
}

// shellLine is what a command line would do, as far as can be told
// without running it.
type shellLine struct {
	cmds []shellCmd
	// writes are the files output is redirected into (> f, >> f, &> f,
	// <> f), as written ("~/.bashrc", "out.txt").
	writes []string
	// unknown says what the line would run that cannot be resolved ("the
	// command name $X"), "" when everything is known.
	unknown string
	// unknownWrite says which redirection target cannot be resolved.
	unknownWrite string
}

// maxShellDepth bounds how deep bash -c, eval and here-documents fed to
// a shell are followed; deeper is unknown.
const maxShellDepth = 8

// analyzeShell parses a bash command line. It never fails: a line that
// does not parse is unknown.
func analyzeShell(line string) *shellLine {
	l := &shellLine{}
	(&shellWalker{l: l}).script(line, 0)
	return l
}

// lastShell is the newest line parsed by parsedShell. One bash call's
// line is judged by Policy.Decide and then by every Claude hook whose
// `if` filter names Bash (Rule.Covers), each of which parsed it again:
// with the last line kept, they share one parse. A shellLine is not
// changed once analysed, so sharing it is safe.
var lastShell struct {
	sync.Mutex
	line string
	l    *shellLine
}

// parsedShell is analyzeShell(line), parsed once for consecutive asks.
func parsedShell(line string) *shellLine {
	lastShell.Lock()
	if l := lastShell.l; l != nil && lastShell.line == line {
		lastShell.Unlock()
		return l
	}
	lastShell.Unlock()
	l := analyzeShell(line)
	lastShell.Lock()
	lastShell.line, lastShell.l = line, l
	lastShell.Unlock()
	return l
}

type shellWalker struct {
	l *shellLine
	// fedBy maps a pipeline stage to the stage whose output it reads.
	fedBy map[*syntax.Stmt]*syntax.Stmt
}

func (w *shellWalker) setUnknown(why string) {
	if w.l.unknown == "" {
		w.l.unknown = why
	}
}

// script walks a whole script (the line, or a bash -c argument).
func (w *shellWalker) script(src string, depth int) {
	if depth > maxShellDepth {
		w.setUnknown("shell code nested more than " + strconv.Itoa(maxShellDepth) + " deep")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.setUnknown("a line that does not parse as bash (" + err.Error() + ")")
		return
	}
	w.walk(f, depth)
}

func (w *shellWalker) walk(n syntax.Node, depth int) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.BinaryCmd:
			if m.Op == syntax.Pipe || m.Op == syntax.PipeAll {
				if w.fedBy == nil {
					w.fedBy = map[*syntax.Stmt]*syntax.Stmt{}
				}
				w.fedBy[m.Y] = lastStage(m.X)
			}
		case *syntax.Stmt:
			switch c := m.Cmd.(type) {
			case *syntax.CallExpr:
				if len(c.Args) > 0 {
					w.call(m, c, depth)
				} else if len(c.Assigns) > 0 {
					// X=1 alone: a command of its own for allow rules (PATH=…
					// changes what later commands run).
					w.l.cmds = append(w.l.cmds, shellCmd{words: []string{printed(c)}})
				}
			case *syntax.DeclClause:
				// export, declare, local, readonly, typeset: the same.
				w.l.cmds = append(w.l.cmds, shellCmd{words: []string{printed(c)}})
			}
		case *syntax.Redirect:
			w.redirect(m)
		}
		return true
	})
}

// lastStage is the statement of a pipeline whose output goes on.
func lastStage(st *syntax.Stmt) *syntax.Stmt {
	for {
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return st
		}
		st = b.Y
	}
}

// word is one word of a command: its text, and whether that text is
// exactly what the program gets (no expansion left in it).
type word struct {
	text string
	lit  bool
	// open: it may expand to other words than its text (an expansion, or
	// an unquoted glob or brace), as a file named "-delete" would.
	open bool
}

func (w *shellWalker) call(st *syntax.Stmt, c *syntax.CallExpr, depth int) {
	ws := make([]word, len(c.Args))
	for i, a := range c.Args {
		ws[i] = wordOf(a)
		ws[i].open = !ws[i].lit || hasUnquotedMeta(a)
	}
	if !ws[0].lit || hasUnquotedMeta(c.Args[0]) {
		w.setUnknown("a command named by an expansion (" + ws[0].text + ")")
		return
	}
	at := len(w.l.cmds)
	w.run(ws, stdinOf{w: w, st: st}, depth)
	if len(c.Assigns) > 0 && at < len(w.l.cmds) {
		var b strings.Builder
		for i, a := range c.Assigns {
			if i > 0 {
				b.WriteByte(' ')
			}
			syntax.NewPrinter().Print(&b, a)
		}
		w.l.cmds[at].assigns = b.String()
	}
}

// printed is a node as written.
func printed(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, n)
	return b.String()
}

// stdinOf tells where a statement reads its input from, for a shell
// that reads its script there.
type stdinOf struct {
	w  *shellWalker
	st *syntax.Stmt
}

// script is the shell code on the statement's stdin: known (a literal
// here-document, here-string or `echo '…' |`), unknown (another
// pipeline stage or an expanding here-document), or none (a file, or
// nothing: bash reads no code the rules could judge).
func (s stdinOf) script() (code string, known, fed bool) {
	if s.st == nil {
		return "", false, false
	}
	for _, r := range s.st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				return "", true, true
			}
			var b strings.Builder
			for _, p := range r.Hdoc.Parts {
				l, ok := p.(*syntax.Lit)
				if !ok {
					return "", false, true
				}
				b.WriteString(l.Value)
			}
			return b.String(), true, true
		case syntax.WordHdoc:
			wd := wordOf(r.Word)
			return wd.text, wd.lit, true
		case syntax.RdrIn:
			return "", false, false
		}
	}
	from := s.w.fedBy[s.st]
	if from == nil {
		return "", false, false
	}
	if c, ok := from.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 1 {
		var args []string
		for _, a := range c.Args {
			wd := wordOf(a)
			if !wd.lit {
				return "", false, true
			}
			args = append(args, wd.text)
		}
		if args[0] == "echo" {
			for len(args) > 1 && (args[1] == "-e" || args[1] == "-n" || args[1] == "-E") {
				args = args[1:]
			}
			return strings.Join(args[1:], " "), true, true
		}
		if args[0] == "printf" && len(args) == 2 && !strings.Contains(args[1], "%") {
			return strings.ReplaceAll(args[1], `\n`, "\n"), true, true
		}
	}
	return "", false, true
}

// run records one command and follows what it runs.
func (w *shellWalker) run(ws []word, in stdinOf, depth int) {
	i := len(w.l.cmds)
	w.l.cmds = append(w.l.cmds, shellCmd{words: texts(ws), open: anyOpen(ws)})
	inner, kind := unwrap(ws)
	switch kind {
	case wrapsNothing:
		return
	case wrapsCommand, wrapsCommandPrivileged, wrapsMoreArgs:
		if len(inner) == 0 {
			return
		}
		// env that sets variables changes what runs: an allow must cover it.
		w.l.cmds[i].wrapper = kind == wrapsCommand && !(progName(ws[0].text) == "env" && len(ws)-len(inner) > 1)
		if !inner[0].lit {
			w.setUnknown("a command named by an expansion (" + inner[0].text + ")")
			return
		}
		at := len(w.l.cmds)
		w.run(inner, stdinOf{w: w}, depth)
		if kind == wrapsMoreArgs && at < len(w.l.cmds) {
			w.l.cmds[at].moreArgs = true
		}
	case wrapsFindExec:
		for _, cmd := range findExecs(ws) {
			if !cmd[0].lit {
				w.setUnknown("a command named by an expansion (" + cmd[0].text + ")")
				continue
			}
			w.run(cmd, stdinOf{w: w}, depth)
		}
	case wrapsCode:
		// inner is the code as one word (bash -c CODE, eval ARGS…).
		w.l.cmds[i].wrapper = true
		if len(inner) == 0 {
			return
		}
		if !inner[0].lit {
			w.setUnknown("code from an expansion (" + strings.Join(texts(ws), " ") + ")")
			return
		}
		w.script(inner[0].text, depth+1)
	case wrapsStdin:
		code, known, fed := in.script()
		if !fed {
			return
		}
		w.l.cmds[i].wrapper = true
		if !known {
			w.setUnknown("a shell reading code from its input (" + strings.Join(texts(ws), " ") + ")")
			return
		}
		w.script(code, depth+1)
	}
}

func anyOpen(ws []word) bool {
	for _, w := range ws {
		if w.open {
			return true
		}
	}
	return false
}

func texts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// redirect records an output redirection into a file.
func (w *shellWalker) redirect(r *syntax.Redirect) {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut, syntax.DplOut:
	default:
		return
	}
	if r.Word == nil {
		return
	}
	if len(r.Word.Parts) == 1 {
		if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
			return // > >(cmd): its commands are walked
		}
	}
	wd := wordOf(r.Word)
	if r.Op == syntax.DplOut && (wd.text == "-" || isDigits(wd.text)) {
		return // >&2, 2>&1, >&-
	}
	target := wd.text
	if !wd.lit {
		if rest, ok := homeRelative(r.Word); ok {
			target = "~" + rest
		} else {
			if w.l.unknownWrite == "" {
				w.l.unknownWrite = "output redirected to " + wd.text
			}
			return
		}
	}
	switch {
	case target == "/dev/null", target == "/dev/stdout", target == "/dev/stderr", target == "/dev/tty",
		strings.HasPrefix(target, "/dev/fd/"):
		return
	}
	w.l.writes = append(w.l.writes, target)
}

// homeRelative reads "$HOME/rest" and "${HOME}/rest" (rest literal).
func homeRelative(wd *syntax.Word) (string, bool) {
	parts := wd.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Param.Value != "HOME" || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil || pe.Excl || pe.Length || pe.Width {
		return "", false
	}
	rest := wordOf(&syntax.Word{Parts: parts[1:]})
	if !rest.lit || rest.text != "" && !strings.HasPrefix(rest.text, "/") {
		return "", false
	}
	return rest.text, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// wordOf is a word as the program gets it when it has no expansions
// (quotes and escapes removed, $'…' decoded); otherwise the word as
// written, quotes and all, and lit false.
func wordOf(wd *syntax.Word) word {
	var b strings.Builder
	lit := true
	var part func(p syntax.WordPart, quoted bool)
	part = func(p syntax.WordPart, quoted bool) {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, quoted))
		case *syntax.SglQuoted:
			if p.Dollar {
				s, _, _ := expand.Format(nil, p.Value, nil)
				s, _, _ = strings.Cut(s, "\x00")
				b.WriteString(s)
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				part(q, true)
			}
		default:
			lit = false
		}
	}
	for _, p := range wd.Parts {
		part(p, false)
	}
	if !lit {
		b.Reset()
		syntax.NewPrinter().Print(&b, wd)
	}
	return word{text: b.String(), lit: lit}
}

// hasUnquotedMeta reports whether a word would be expanded by globbing
// or braces (/bin/r?, {rm,-rf,x}), so its text is not what runs.
func hasUnquotedMeta(wd *syntax.Word) bool {
	for _, p := range wd.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := l.Value
		if strings.ContainsAny(v, "*?[") || strings.Contains(v, "{") && (strings.Contains(v, ",") || strings.Contains(v, "..")) {
			return true
		}
	}
	return false
}

// unescape removes shell backslash escapes: all of them outside quotes,
// only \\ \" \$ \` inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!quoted || strings.IndexByte("\\\"$`\n", s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// progName is the program a command word names: its base name, so that
// /bin/rm and /usr/bin/rm are rm.
func progName(s string) string {
	if strings.Contains(s, "/") {
		return path.Base(s)
	}
	return s
}
