package permission

import (
	"strings"
	"sync"
)

// This file knows the programs that run other commands given as their
// arguments, and how far their options go, so that `sudo -u x rm`,
// `timeout 5 rm`, `env -i A=1 rm` and `find . -exec rm {} \;` are seen
// to run rm.

// wraps says what a command runs besides itself.
type wraps int

const (
	wrapsNothing wraps = iota
	// wrapsCommand: it runs the command in its arguments and does
	// nothing of its own worth a rule (env, time, nice, nohup, timeout,
	// command, exec, stdbuf, setsid).
	wrapsCommand
	// wrapsCommandPrivileged: it runs the command in its arguments and
	// matters itself (sudo, doas): an allow must cover both.
	wrapsCommandPrivileged
	// wrapsMoreArgs: xargs, which runs the command with arguments read
	// from its input.
	wrapsMoreArgs
	// wrapsFindExec: find, which runs the commands of its -exec, -execdir,
	// -ok and -okdir.
	wrapsFindExec
	// wrapsCode: it runs shell code given as an argument (bash -c, eval,
	// trap).
	wrapsCode
	// wrapsStdin: a shell reading its code from its input.
	wrapsStdin
)

// wrapper is how one wrapper's options are read.
type wrapper struct {
	kind wraps
	// withArg are the short options that take an argument.
	withArg string
	// longWithArg are the long options that take an argument when it
	// is not attached with =.
	longWithArg []string
	// assigns: NAME=VALUE words may come before the command (env, sudo).
	assigns bool
	// operands are words after the options that are not the command
	// (timeout's duration).
	operands int
	// noRun are short options with which it runs no command (command -v).
	noRun string
}

var wrappers = sync.OnceValue(func() map[string]wrapper {
	return map[string]wrapper{
		"env":     {kind: wrapsCommand, withArg: "uCP", longWithArg: []string{"unset", "chdir"}, assigns: true},
		"command": {kind: wrapsCommand, noRun: "vV"},
		"builtin": {kind: wrapsCommand},
		"exec":    {kind: wrapsCommand, withArg: "a"},
		"time":    {kind: wrapsCommand, withArg: "fo", longWithArg: []string{"format", "output"}},
		"nice":    {kind: wrapsCommand, withArg: "n", longWithArg: []string{"adjustment"}},
		"ionice":  {kind: wrapsCommand, withArg: "cn", longWithArg: []string{"class", "classdata"}, noRun: "p"},
		"nohup":   {kind: wrapsCommand},
		"setsid":  {kind: wrapsCommand},
		"stdbuf":  {kind: wrapsCommand, withArg: "ioe", longWithArg: []string{"input", "output", "error"}},
		"timeout": {kind: wrapsCommand, withArg: "sk", longWithArg: []string{"signal", "kill-after"}, operands: 1},
		"sudo": {kind: wrapsCommandPrivileged, withArg: "CDghprtTUuR", assigns: true, noRun: "elvkKV",
			longWithArg: []string{"close-from", "chdir", "group", "host", "prompt", "role", "type", "command-timeout", "other-user", "user", "chroot"}},
		"doas":  {kind: wrapsCommandPrivileged, withArg: "uC"},
		"xargs": {kind: wrapsMoreArgs, withArg: "adEILnPs", longWithArg: []string{"arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}},
	}
})

// shells run code given with -c, or read it from a file or their input.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true, "rbash": true}

// unwrap says what a command runs: the command (or, for wrapsCode, the
// code as one word) and how.
func unwrap(ws []word) ([]word, wraps) {
	name := progName(ws[0].text)
	if w, ok := wrappers()[name]; ok {
		i, flags := skipOptions(ws, 1, w.withArg, w.longWithArg)
		if strings.ContainsAny(flags, w.noRun) && w.noRun != "" {
			return nil, wrapsNothing
		}
		if name == "env" && strings.ContainsAny(flags, "S") {
			return []word{{text: "env -S", lit: false}}, wrapsCommand // env -S splits a string: not followed
		}
		if w.assigns {
			for i < len(ws) && isAssignment(ws[i].text) {
				i++
			}
		}
		i += w.operands
		if i >= len(ws) {
			return nil, wrapsNothing
		}
		return ws[i:], w.kind
	}
	switch {
	case name == "eval":
		if len(ws) < 2 {
			return nil, wrapsNothing
		}
		code := word{lit: true}
		var parts []string
		for _, w := range ws[1:] {
			code.lit = code.lit && w.lit
			parts = append(parts, w.text)
		}
		code.text = strings.Join(parts, " ")
		return []word{code}, wrapsCode
	case name == "trap":
		if len(ws) < 3 || strings.HasPrefix(ws[1].text, "-") {
			return nil, wrapsNothing
		}
		return ws[1:2], wrapsCode
	case name == "find":
		return nil, wrapsFindExec
	case shells[name]:
		return shellCode(ws)
	}
	return nil, wrapsNothing
}

// shellCode reads a shell's arguments: the code of -c, a script file
// (which the rules cannot judge: the command is only itself), or its
// input.
func shellCode(ws []word) ([]word, wraps) {
	hasC := false
	i := 1
	for ; i < len(ws); i++ {
		a := ws[i].text
		if a == "--" || a == "-" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
			continue
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") || len(a) < 2 {
			break
		}
		if a[0] == '-' && strings.Contains(a, "c") {
			hasC = true
		}
		if strings.ContainsAny(a[1:], "oO") {
			i++ // -o option, -O shopt
		}
	}
	if hasC {
		if i >= len(ws) {
			return nil, wrapsNothing
		}
		return ws[i : i+1], wrapsCode
	}
	if i < len(ws) {
		return nil, wrapsNothing // a script file
	}
	return nil, wrapsStdin
}

// skipOptions skips the options from ws[i]: it returns the index of the
// first word that is not one, and the short option letters seen.
func skipOptions(ws []word, i int, withArg string, longWithArg []string) (int, string) {
	var flags strings.Builder
	for ; i < len(ws); i++ {
		a := ws[i].text
		if a == "--" {
			return i + 1, flags.String()
		}
		if a == "-" {
			flags.WriteByte('i') // env -: an empty environment
			continue
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		if long, ok := strings.CutPrefix(a, "--"); ok {
			if !strings.Contains(long, "=") {
				for _, l := range longWithArg {
					if l == long {
						i++
						break
					}
				}
			}
			if strings.HasPrefix(long, "split-string") {
				flags.WriteByte('S')
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			flags.WriteByte(a[j])
			if strings.IndexByte(withArg, a[j]) >= 0 {
				if j == len(a)-1 {
					i++ // the argument is the next word
				}
				break
			}
		}
	}
	return i, flags.String()
}

// isAssignment reports whether s is NAME=VALUE.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// findExecs are the commands of find's -exec, -execdir, -ok and -okdir,
// each up to its ; or +.
func findExecs(ws []word) [][]word {
	var out [][]word
	for i := 1; i < len(ws); i++ {
		switch ws[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(ws) && ws[j].text != ";" && ws[j].text != "+" {
			j++
		}
		if j > i+1 {
			out = append(out, ws[i+1:j])
		}
		i = j
	}
	return out
}
