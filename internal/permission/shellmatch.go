package permission

import (
	"encoding/json"
	"strings"
)

// This file matches Bash rules against what a command line would run
// (see shell.go): a deny or ask rule against any of its commands, in any
// of their spellings; an allow rule against each of them as written.

// namesLine reports whether a deny or ask rule names anything the bash
// line would run: the whole line, any command in it (the program by its
// base name too: /bin/rm is rm), or something that cannot be resolved,
// which a rule naming a command must be taken to cover. why says what
// matched when it is not the line itself.
func (r Rule) namesLine(c Call, line string, l *shellLine) (ok bool, why string) {
	if !r.matchesTool(c) {
		return false, ""
	}
	if r.Spec == "" || kindOf(r.Tool) == kindBash && commandMatches(r.Spec, line) {
		return true, ""
	}
	if kindOf(r.Tool) != kindBash {
		return false, ""
	}
	for _, cmd := range l.cmds {
		if cmdNamed(r.Spec, cmd) {
			if cmd.text() == line {
				return true, ""
			}
			return true, "the line runs " + cmd.text()
		}
	}
	if l.unknown != "" {
		return true, "the line runs " + l.unknown + ", which cannot be judged before it runs"
	}
	return false, ""
}

// cmdNamed: a deny or ask specifier covers the command, by the program
// as written or by its base name, and, for a command run with more
// arguments than the line shows, by any completion of them.
func cmdNamed(spec string, cmd shellCmd) bool {
	text := cmd.text()
	if commandMatches(spec, text) {
		return true
	}
	base := baseCommand(text)
	bspec := baseCommand(spec)
	if commandMatches(bspec, base) {
		return true
	}
	if cmd.moreArgs {
		p := strings.TrimSuffix(bspec, ":*")
		return strings.HasPrefix(p, base+" ")
	}
	return false
}

// baseCommand replaces the first word of a command (or a specifier) by
// its base name: "/usr/bin/rm -rf x" is "rm -rf x", "/bin/rm:*" is
// "rm:*". A first word with a * in it stays.
func baseCommand(s string) string {
	head, rest, spaced := strings.Cut(s, " ")
	suffix := ""
	if !spaced {
		if h, ok := strings.CutSuffix(head, ":*"); ok {
			head, suffix = h, ":*"
		}
	}
	if !strings.Contains(head, "/") || strings.Contains(head, "*") {
		return s
	}
	head = progName(head)
	if spaced {
		return head + " " + rest
	}
	return head + suffix
}

// allowsCmd: an allow specifier covers the command as written. A command
// that gets more arguments than the line shows (xargs) needs a prefix or
// wildcard rule.
func allowsCmd(spec string, cmd shellCmd) bool {
	if cmd.moreArgs && !strings.HasSuffix(spec, "*") {
		return false
	}
	return commandMatches(spec, cmd.allowText())
}

// allowsLine finds the allow rule for a bash line: a rule for every
// command (Bash) or for exactly this line (exact true: its redirections
// are allowed with it), or else rules that together cover every command
// the line runs, wrappers aside; the first of those is returned. A line
// with something unresolvable, or with no command, is allowed only by the
// first two.
func allowsLine(allow []Rule, c Call, line string, l *shellLine) (r *Rule, exact bool) {
	for i := range allow {
		if allow[i].matchesTool(c) && (allow[i].Spec == "" || allow[i].Spec == line) {
			return &allow[i], true
		}
	}
	if l.unknown != "" {
		return nil, false
	}
	var first *Rule
	for _, cmd := range l.cmds {
		if cmd.wrapper {
			continue
		}
		var found *Rule
		for i := range allow {
			if allow[i].matchesTool(c) && kindOf(allow[i].Tool) == kindBash && allowsCmd(allow[i].Spec, cmd) {
				found = &allow[i]
				break
			}
		}
		if found == nil {
			return nil, false
		}
		if first == nil {
			first = found
		}
	}
	return first, false
}

// writeCall is a redirection into a file as the rules judge it: a write
// tool call of that path.
func writeCall(path string) Call {
	in, _ := json.Marshal(map[string]string{"path": path})
	return Call{Name: "write", RuntimeName: "write", Builtin: true, Input: in}
}
