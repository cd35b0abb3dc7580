package permission

import (
	"strings"
	"sync"
)

// This file tells a read-only bash line — one that only looks — from the
// rest, so that default mode runs it without asking, as Claude Code runs
// `git status` or `seq 3 | sed -n 2p`. It judges the parsed line
// (shell.go): every simple command it would run, wrappers seen through
// and substitutions included, must be a program of readOnlyPrograms with
// arguments its check accepts; no output may be redirected into a file
// (/dev/null and the like are no file); nothing may be unknown. A line
// that assigns variables, defines or calls functions, or runs anything
// else is not read-only. docs/permissions.md lists the programs.

// argCheck says whether a program's arguments (after its name) keep it
// read-only. nil: any arguments do.
type argCheck func(args []string) bool

// readOnlyPrograms are the programs that only read, each with the check
// of the arguments that would make it write or run something.
// Built on first use: package init stays light (TestPackageInitIsLight).
var readOnlyPrograms = sync.OnceValue(func() map[string]argCheck {
	return map[string]argCheck{
		// Files and text.
		"cat": nil, "head": nil, "tail": nil, "wc": nil, "grep": nil, "egrep": nil, "fgrep": nil,
		"ls": nil, "stat": nil, "du": nil, "df": nil, "cut": nil, "tr": nil, "nl": nil, "tac": nil,
		"rev": nil, "fold": nil, "column": nil, "cmp": nil, "comm": nil, "diff": nil, "od": nil,
		"hexdump": nil, "strings": nil, "md5sum": nil, "sha1sum": nil, "sha256sum": nil, "sha512sum": nil,
		"basename": nil, "dirname": nil, "realpath": nil, "readlink": nil, "jq": nil,
		"rg":   noneOf("--pre"),                                // --pre runs a program on every file
		"file": noneOf("-C", "--compile"),                      // -C writes a magic file
		"tree": noneOf("-o"),                                   // -o writes its listing to a file
		"sort": noneOf("-o", "--output", "--compress-program"), // -o writes; --compress-program runs
		"uniq": atMostOperands(1),                              // uniq IN OUT writes OUT
		"xxd":  atMostOperands(1),                              // xxd IN OUT writes OUT
		"find": noneOf("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"),
		"sed":  sedReadOnly,
		"git":  gitReadOnly,
		"date": dateReadOnly,
		// The shell and the system.
		"seq": nil, "printf": nil, "echo": nil, "pwd": nil, "which": nil, "type": nil, "whoami": nil,
		"id": nil, "uname": nil, "true": nil, "false": nil, "test": nil, "[": nil, "expr": nil,
		"cd": nil, "nproc": nil, "ps": nil,
		"command": func(args []string) bool { return len(args) > 0 && (args[0] == "-v" || args[0] == "-V") },
	}
})

// readOnlyWrappers are the wrappers that run a command and do nothing
// of their own (the command they run is judged by itself), with the
// check of their own options.
// Built on first use: package init stays light (TestPackageInitIsLight).
var readOnlyWrappers = sync.OnceValue(func() map[string]argCheck {
	return map[string]argCheck{
		"time": noneOf("-o", "--output"), // -o writes the timings to a file
		"nice": nil, "timeout": nil, "stdbuf": nil, "command": nil, "builtin": nil, "exec": nil, "env": nil,
		"xargs": nil, // what it runs is judged with its arguments unknown
		// Shells running code on their line (bash -c '…', eval): the code's
		// commands are judged.
		"bash": nil, "sh": nil, "dash": nil, "zsh": nil, "eval": nil,
	}
})

// readOnlyBash reports whether the bash command cmd, parsed as l, only
// reads: readOnlyLine, and no /dev/tcp or /dev/udp path, which bash
// turns into a network connection (`cat < /dev/tcp/host/80` reaches out
// as surely as curl).
func readOnlyBash(cmd string, l *shellLine) bool {
	return cmd != "" && !strings.Contains(cmd, "/dev/tcp/") && !strings.Contains(cmd, "/dev/udp/") && readOnlyLine(l)
}

// readOnlyLine reports whether every command l runs is read-only and it
// writes no file.
func readOnlyLine(l *shellLine) bool {
	if l == nil || l.unknown != "" || l.unknownWrite != "" || len(l.writes) > 0 || len(l.cmds) == 0 {
		return false
	}
	for _, c := range l.cmds {
		if !readOnlyCmd(c) {
			return false
		}
	}
	return true
}

func readOnlyCmd(c shellCmd) bool {
	if c.assigns != "" || len(c.words) == 0 {
		return false // X=… can change what runs (PATH, LD_PRELOAD, GIT_…)
	}
	name, args := c.words[0], c.words[1:]
	if strings.Contains(name, "/") {
		return false // ./ls is not ls
	}
	table := readOnlyPrograms()
	if c.wrapper || name == "xargs" {
		table = readOnlyWrappers()
	}
	check, ok := table[name]
	if !ok {
		return false
	}
	if check == nil {
		return true
	}
	// Arguments not all on the line ($X, *, xargs's input) could be the
	// very option the check refuses.
	if c.open || c.moreArgs {
		return false
	}
	return check(args)
}

// noneOf refuses the options named: a long one alone, with =value or
// abbreviated (--outp is --output); a short one alone, with its value
// attached (-ofile) or bundled with others (-uo). Refusing too much only
// asks the question.
func noneOf(opts ...string) argCheck {
	return func(args []string) bool {
		for _, a := range args {
			for _, o := range opts {
				long := strings.HasPrefix(o, "--") || len(o) > 2
				switch {
				case a == o, strings.HasPrefix(a, o+"="):
					return false
				case long && strings.HasPrefix(o, "--") && len(a) > 3 && strings.HasPrefix(o, strings.SplitN(a, "=", 2)[0]):
					return false // an abbreviation: --outp
				case !long && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], o[1]) >= 0:
					return false
				}
			}
		}
		return true
	}
}

// atMostOperands allows n words that are no option.
func atMostOperands(n int) argCheck {
	return func(args []string) bool {
		k := 0
		for _, a := range args {
			if a == "-" || !strings.HasPrefix(a, "-") {
				k++
			}
		}
		return k <= n
	}
}

// dateReadOnly: date shows the time; -s or an operand that is not a
// +FORMAT sets it.
func dateReadOnly(args []string) bool {
	for _, a := range args {
		switch {
		case a == "-s" || strings.HasPrefix(a, "--set") || strings.HasPrefix(a, "-s"):
			return false
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return false
		}
	}
	return true
}

// readsAllowed reports whether a read-only line reads only what the Read
// deny rules allow (judge is Policy.DenyReads; nil: no rule denies
// reading): no word names a file a rule covers, no word expands to
// unknown files, and no command walks a directory (grep -r, find, rg,
// tree, du, ls -R, git showing file contents), which could reach one.
// Otherwise the line is asked about, as before: a Read(.env) deny rule
// must not be sidestepped by `cat .env` running without a question.
func readsAllowed(l *shellLine, judge func(path string, link bool) string, workDir, home string) bool {
	if judge == nil {
		return true
	}
	for _, c := range l.cmds {
		if c.open || walks(c.words) {
			return false
		}
		for _, w := range c.words[1:] {
			if strings.HasPrefix(w, "-") {
				continue
			}
			if judge(absPath(w, workDir, home), true) != "" {
				return false
			}
		}
	}
	return true
}

// walks: the command reads files it does not name.
func walks(words []string) bool {
	switch words[0] {
	case "find", "rg", "tree", "du":
		return true
	case "git":
		for _, w := range words[1:] {
			switch w {
			case "status", "branch", "tag", "remote", "rev-parse", "describe", "version", "config", "worktree", "stash", "reflog", "show-ref", "merge-base", "name-rev", "count-objects":
				return w == "stash" // stash show shows contents
			case "log", "show", "diff", "grep", "blame", "cat-file", "ls-files", "ls-tree", "shortlog", "rev-list":
				return true
			}
		}
		return true
	case "grep", "egrep", "fgrep", "ls":
		for _, w := range words[1:] {
			if w == "--recursive" || w == "--dereference-recursive" || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w, "rR") {
				return true
			}
		}
	}
	return false
}
