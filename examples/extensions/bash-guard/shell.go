package main

// This file turns a bash command line into what it would run: the simple
// commands (after wrappers such as sudo and env), the files it redirects
// output into, and the functions that spawn copies of themselves. The rules
// in rules.go look only at that, never at the raw text, so quoting,
// spacing and paths do not fool them ("/bin/rm  -r -f '/'" is rm -rf /),
// and text that is only printed ("echo 'rm -rf /'") runs nothing.

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Call is one simple command as it would run.
type Call struct {
	// Name is the program's base name after any wrappers: "rm" for
	// "sudo /bin/rm -rf x". "" when a wrapper runs nothing ("sudo -v").
	Name string
	// Args are its arguments with quotes and backslashes removed;
	// variables stay as written ("$HOME", "${HOME}" becomes "$HOME").
	Args []string
	// Wrappers are the programs that run it, outermost first ("sudo").
	Wrappers []string
	// FromDownload: curl or wget feed it — on stdin through a pipe
	// (curl … | sh), or in an argument (sh <(curl …), sh -c "$(curl …)").
	FromDownload bool
}

// Script is what a command line would run, as far as bash-guard can tell.
type Script struct {
	Calls []Call
	// Writes are the targets of output redirections (> x, >> x, &> x).
	Writes []string
	// ForkBombs are functions that start copies of themselves in a pipe
	// or in the background.
	ForkBombs []string
	// Unparsed: the shell parser rejected the line (bash may still run
	// the part before the error), so the calls come from a plain split on
	// operators and spaces.
	Unparsed bool
}

// maxDepth bounds how deep `sh -c '…'` and `eval '…'` are followed.
const maxDepth = 4

// shells are the programs that run a script given with -c or on stdin.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true}

// downloaders fetch content from the network.
var downloaders = map[string]bool{"curl": true, "wget": true}

// Analyze parses a bash command line.
func Analyze(line string) *Script {
	s := &Script{}
	(&analyzer{s: s}).line(line, 0)
	return s
}

type analyzer struct{ s *Script }

func (a *analyzer) line(line string, depth int) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		a.s.Unparsed = true
		a.naive(line, depth)
		return
	}
	for _, st := range f.Stmts {
		a.stmt(st, false, depth)
	}
}

// stmt records one statement. fed says its stdin comes from a download.
func (a *analyzer) stmt(st *syntax.Stmt, fed bool, depth int) {
	for _, r := range st.Redirs {
		if r.Word == nil {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob,
			syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
			a.s.Writes = append(a.s.Writes, wordText(r.Word))
		case syntax.RdrIn:
			if runsDownload(r.Word) { // sh < <(curl …)
				fed = true
			}
		}
		a.nested(r.Word, false, depth)
	}
	switch c := st.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		a.call(c, fed, depth)
	case *syntax.BinaryCmd:
		a.stmt(c.X, fed, depth)
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			fed = fed || runsDownload(c.X)
		}
		a.stmt(c.Y, fed, depth)
	case *syntax.Block:
		for _, s := range c.Stmts {
			a.stmt(s, fed, depth)
		}
	case *syntax.Subshell:
		for _, s := range c.Stmts {
			a.stmt(s, fed, depth)
		}
	case *syntax.FuncDecl:
		if c.Name != nil && spawnsItself(c.Body, c.Name.Value) {
			a.s.ForkBombs = append(a.s.ForkBombs, c.Name.Value)
		}
		a.stmt(c.Body, false, depth)
	default:
		// if, while, for, case, [[ ]], declare, time, …: the statements
		// and substitutions inside.
		a.nested(c, fed, depth)
	}
}

// nested records the statements inside n (command substitutions, process
// substitutions, compound command bodies), without descending into them
// twice.
func (a *analyzer) nested(n syntax.Node, fed bool, depth int) {
	syntax.Walk(n, func(m syntax.Node) bool {
		if st, ok := m.(*syntax.Stmt); ok {
			a.stmt(st, fed, depth)
			return false
		}
		return true
	})
}

func (a *analyzer) call(c *syntax.CallExpr, fed bool, depth int) {
	for _, as := range c.Assigns { // X=$(…) cmd
		a.nested(as, false, depth)
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		words[i] = wordText(w)
		if runsDownload(w) {
			fed = true
		}
		a.nested(w, false, depth)
	}
	a.add(words, fed, depth)
}

// add records the call of argv words and follows the scripts it runs.
func (a *analyzer) add(words []string, fed bool, depth int) {
	if len(words) == 0 {
		return
	}
	c := unwrap(words)
	c.FromDownload = fed
	a.s.Calls = append(a.s.Calls, c)
	if depth >= maxDepth {
		return
	}
	switch {
	case shells[c.Name]:
		if script, ok := dashC(c.Args); ok {
			a.line(script, depth+1)
		}
	case c.Name == "eval":
		a.line(strings.Join(c.Args, " "), depth+1)
	}
}

// dashC finds the script of `sh -c SCRIPT` (also -lc, -ec, …).
func dashC(args []string) (string, bool) {
	for i, arg := range args {
		if arg == "--" {
			return "", false
		}
		if len(arg) < 2 || arg[0] != '-' || arg[1] == '-' || !strings.ContainsRune(arg[1:], 'c') {
			continue
		}
		for _, s := range args[i+1:] {
			if s != "--" && !strings.HasPrefix(s, "-") {
				return s, true
			}
		}
	}
	return "", false
}

// unwrap strips the programs that only run another one (sudo, env, nice,
// …) and returns the program that really runs.
func unwrap(words []string) Call {
	var c Call
	for len(words) > 0 {
		name := path.Base(words[0])
		rest := words[1:]
		var skip int
		switch name {
		case "sudo", "doas":
			skip = skipOptions(rest, "-u -g -C -D -h -p -r -t -U -T --user --group --chdir --close-from --host --prompt --role --type --other-user --command-timeout")
		case "env":
			skip = skipOptions(rest, "-u -C -S --unset --chdir --split-string")
			for skip < len(rest) && strings.Contains(rest[skip], "=") {
				skip++
			}
		case "nice":
			skip = skipOptions(rest, "-n --adjustment")
		case "timeout":
			skip = skipOptions(rest, "-k -s --kill-after --signal")
			if skip < len(rest) {
				skip++ // the duration
			}
		case "exec":
			skip = skipOptions(rest, "-a")
		case "command", "builtin", "nohup", "setsid", "time":
			skip = skipOptions(rest, "-o --output -f --format")
		case "stdbuf":
			skip = skipOptions(rest, "-i -o -e --input --output --error")
		case "ionice":
			skip = skipOptions(rest, "-c -n -p -P -u --class --classdata --pid --pgid --uid")
		case "xargs": // find … | xargs rm -rf: the arguments come from stdin
			skip = skipOptions(rest, "-a -d -E -e -I -i -L -l -n -P -s --arg-file --delimiter --eof --replace --max-lines --max-args --max-procs --max-chars --process-slot-var")
		default:
			c.Name, c.Args = name, rest
			return c
		}
		c.Wrappers = append(c.Wrappers, name)
		words = rest[skip:]
	}
	return c
}

// skipOptions counts the leading options of args; withValue lists the
// options that take the next word as their value.
func skipOptions(args []string, withValue string) int {
	takesValue := map[string]bool{}
	for _, o := range strings.Fields(withValue) {
		takesValue[o] = true
	}
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			return i + 1
		}
		if len(a) < 2 || a[0] != '-' {
			return i
		}
		i++
		if takesValue[a] {
			i++
		}
	}
	if i > len(args) {
		i = len(args)
	}
	return i
}

// runsDownload reports whether n runs curl or wget anywhere inside.
func runsDownload(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			words := make([]string, len(c.Args))
			for i, w := range c.Args {
				words[i] = wordText(w)
			}
			if downloaders[unwrap(words).Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// spawnsItself reports whether a function body calls the function in a
// pipe or in the background: the shape of a fork bomb (:(){ :|:& };:).
func spawnsItself(body *syntax.Stmt, name string) bool {
	calls := func(n syntax.Node) bool {
		found := false
		syntax.Walk(n, func(m syntax.Node) bool {
			if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 && wordText(c.Args[0]) == name {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	syntax.Walk(body, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.BinaryCmd:
			if (m.Op == syntax.Pipe || m.Op == syntax.PipeAll) && (calls(m.X) || calls(m.Y)) {
				found = true
			}
		case *syntax.Stmt:
			if m.Background && calls(m) {
				found = true
			}
		}
		return !found
	})
	return found
}

// wordText is a word as the program would see it, minus expansions:
// quotes and escapes removed, "$HOME" and "${HOME}" kept as "$HOME", other
// expansions printed as written.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		partText(&b, p, false)
	}
	return b.String()
}

func partText(b *strings.Builder, p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, quoted))
	case *syntax.SglQuoted:
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			partText(b, q, true)
		}
	case *syntax.ParamExp:
		if p.Param != nil && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil &&
			!p.Excl && !p.Length && !p.Width {
			b.WriteString("$" + p.Param.Value)
			return
		}
		_ = syntax.NewPrinter().Print(b, p)
	default:
		_ = syntax.NewPrinter().Print(b, p)
	}
}

// unescape removes shell backslash escapes: all of them outside quotes,
// only \\ \" \$ \` inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!quoted || strings.IndexByte("\\\"$`", s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// The fallback for lines the parser rejects: split on the control
// operators, then on spaces, and strip quote characters.
var (
	naiveOperator = regexp.MustCompile("\\|\\||&&|\\$\\(|[;&|\n()`{}]")
	naiveForkBomb = regexp.MustCompile(`([A-Za-z_:][A-Za-z0-9_:.-]*)\s*\(\s*\)\s*\{([^}]*)\}`)
)

func (a *analyzer) naive(line string, depth int) {
	for _, m := range naiveForkBomb.FindAllStringSubmatch(line, -1) {
		name, body := m[1], m[2]
		if strings.Contains(body, name) && strings.ContainsAny(body, "|&") {
			a.s.ForkBombs = append(a.s.ForkBombs, name)
		}
	}
	seps := naiveOperator.FindAllStringIndex(line, -1)
	start, download := 0, false
	for i := 0; i <= len(seps); i++ {
		end, sep := len(line), ""
		if i < len(seps) {
			end, sep = seps[i][0], line[seps[i][0]:seps[i][1]]
		}
		words := a.naiveWords(line[start:end])
		if len(words) > 0 {
			first := len(a.s.Calls)
			a.add(words, download && i > 0 && line[seps[i-1][0]:seps[i-1][1]] == "|", depth)
			if downloaders[a.s.Calls[first].Name] {
				download = true
			}
		}
		if sep != "|" && sep != "" {
			download = false
		}
		if i < len(seps) {
			start = seps[i][1]
		}
	}
}

// naiveWords splits one simple command into words, taking out output
// redirections (> target, >>target, 2>target) into Writes.
func (a *analyzer) naiveWords(segment string) []string {
	fields := strings.Fields(segment)
	var words []string
	for i := 0; i < len(fields); i++ {
		f := strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(fields[i])
		if j := strings.IndexByte(f, '>'); j >= 0 {
			target := strings.TrimLeft(f[j:], ">|&")
			if target == "" && i+1 < len(fields) {
				i++
				target = strings.NewReplacer(`"`, "", `'`, "").Replace(fields[i])
			}
			if target != "" {
				a.s.Writes = append(a.s.Writes, target)
			}
			if f = f[:j]; strings.Trim(f, "0123456789&") == "" {
				continue
			}
		}
		if f != "" {
			words = append(words, f)
		}
	}
	return words
}
