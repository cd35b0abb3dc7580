package permission

import (
	"strings"
	"sync"
)

// The argument checks of sed and git, whose arguments decide whether
// they only read (readonly.go).

// sedReadOnly: sed without -i or a script file, whose scripts only
// print, delete from the output, substitute or transliterate: the w and
// e commands and flags (write a file, run a command), and commands this
// reader does not know, are not read-only.
func sedReadOnly(args []string) bool {
	var scripts []string
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands += len(args) - i - 1
			i = len(args)
		case a == "--expression" || a == "-e":
			if i+1 >= len(args) {
				return false
			}
			scripts = append(scripts, args[i+1])
			i++
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case strings.HasPrefix(a, "--"):
			switch a {
			case "--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox":
			default:
				return false // --in-place, --file and the rest
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'n', 'E', 'r', 's', 'u', 'z':
				case 'e':
					rest := a[j+1:]
					if rest == "" {
						if i+1 >= len(args) {
							return false
						}
						i++
						rest = args[i]
					}
					scripts = append(scripts, rest)
					j = len(a)
				default:
					return false // -i, -f, -l and the rest
				}
			}
		default:
			if len(scripts) == 0 && operands == 0 {
				scripts = append(scripts, a)
				operands = -1 // the script, not a file
			}
			operands++
		}
	}
	if len(scripts) == 0 {
		return false
	}
	for _, s := range scripts {
		if !sedScriptReadOnly(s) {
			return false
		}
	}
	return true
}

// sedScriptReadOnly reads a sed script: addresses, then commands that
// change only what sed prints.
func sedScriptReadOnly(s string) bool {
	i := 0
	skipSpace := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	// delimited skips a delimited part (a /regex/, s's pattern or
	// replacement) from s[i], which is just after the opening delim.
	delimited := func(d byte) bool {
		for i < len(s) {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case '\n':
				return false
			case d:
				i++
				return true
			}
			i++
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && s[i] == '$':
			i++
		case i < len(s) && s[i] >= '0' && s[i] <= '9':
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < len(s) && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	for i < len(s) {
		skipSpace()
		if i < len(s) && (s[i] == ';' || s[i] == '\n' || s[i] == '}') {
			i++
			continue
		}
		if i >= len(s) {
			break
		}
		if !address() {
			return false
		}
		if i < len(s) && s[i] == ',' {
			i++
			if !address() {
				return false
			}
		}
		skipSpace()
		if i < len(s) && s[i] == '!' {
			i++
			skipSpace()
		}
		if i >= len(s) {
			return false
		}
		c := s[i]
		i++
		switch c {
		case 'p', 'd', 'D', 'n', 'N', 'P', 'g', 'G', 'h', 'H', 'x', 'l', 'z', '=', '{':
		case 'q', 'Q':
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case 's', 'y':
			if i >= len(s) || s[i] == '\\' || s[i] == '\n' {
				return false
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return false
			}
			for c == 's' && i < len(s) && strings.IndexByte("gpiImM0123456789", s[i]) >= 0 {
				i++ // not w (write a file) nor e (run the pattern space)
			}
		default:
			return false // w, W, r, R, e, a, i, c, b, t, labels …
		}
		skipSpace()
		if i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
			return false
		}
	}
	return true
}

// gitReadOnly: git with options that change no config nor run anything
// (-C, --no-pager …; not -c), and a subcommand that only reads.
func gitReadOnly(args []string) bool {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		switch a := args[i]; {
		case a == "-C":
			i++
		case a == "--no-pager", a == "-P", a == "--no-optional-locks", a == "--bare", a == "--literal-pathspecs",
			a == "--no-replace-objects", strings.HasPrefix(a, "--git-dir="), strings.HasPrefix(a, "--work-tree="):
		default:
			return false // -c sets config (core.pager, core.fsmonitor run programs), and the rest
		}
	}
	if i >= len(args) {
		return false
	}
	check, ok := gitReadOnlySubcommands()[args[i]]
	if !ok {
		return false
	}
	return check == nil || check(args[i+1:])
}

// gitReadOnlySubcommands are git's subcommands that only read, with the
// check of their arguments.
// Built on first use: package init stays light (TestPackageInitIsLight).
var gitReadOnlySubcommands = sync.OnceValue(func() map[string]argCheck {
	return map[string]argCheck{
		"status": nil, "blame": nil, "describe": nil, "rev-parse": nil, "ls-files": nil, "ls-tree": nil,
		"cat-file": nil, "rev-list": nil, "merge-base": nil, "show-ref": nil, "name-rev": nil, "count-objects": nil,
		"version":  nil,
		"log":      noneOf("--output", "--ext-diff"), // --output writes the patch to a file
		"show":     noneOf("--output", "--ext-diff"),
		"diff":     noneOf("--output", "--ext-diff"),
		"shortlog": noneOf("--output"),
		"grep":     noneOf("-O", "--open-files-in-pager"), // -O runs a program
		"branch":   listingOnly("-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--show-current", "--color", "--no-color", "--column", "--no-column", "--merged", "--no-merged", "--contains=", "--no-contains=", "--points-at=", "--sort=", "--format=", "--color=", "--abbrev="),
		"tag":      listingOnly("-n", "--column", "--no-column", "--merged", "--no-merged", "--contains=", "--no-contains=", "--points-at=", "--sort=", "--format=", "--color", "--color="),
		"remote": func(a []string) bool {
			return len(a) == 0 || a[0] == "-v" || a[0] == "--verbose" || a[0] == "show" || a[0] == "get-url"
		},
		"stash":    func(a []string) bool { return len(a) > 0 && (a[0] == "list" || a[0] == "show") },
		"worktree": func(a []string) bool { return len(a) > 0 && a[0] == "list" },
		"reflog":   func(a []string) bool { return len(a) == 0 || a[0] == "show" },
		"config": func(a []string) bool {
			for _, w := range a {
				switch w {
				case "--get", "--get-all", "--get-regexp", "--list", "-l":
					return true
				}
			}
			return false
		},
	}
})

// listingOnly: git branch and git tag that list: only the flags given
// (a flag ending in = takes its value attached; -n takes digits), and
// patterns only after -l or --list. Anything else creates, deletes,
// moves or sets something.
func listingOnly(flags ...string) argCheck {
	return func(args []string) bool {
		listing := false
		operands := 0
	next:
		for _, a := range args {
			switch {
			case a == "-l" || a == "--list":
				listing = true
				continue
			case !strings.HasPrefix(a, "-"):
				operands++
				continue
			case strings.HasPrefix(a, "-n") && strings.Trim(a[2:], "0123456789") == "":
				if contains(flags, "-n") {
					continue
				}
			}
			for _, f := range flags {
				if a == f || strings.HasSuffix(f, "=") && strings.HasPrefix(a, f) {
					continue next
				}
			}
			return false
		}
		return operands == 0 || listing
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
