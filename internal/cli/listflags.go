package cli

import (
	"os"
	"strings"
)

// Claude Code's list flags are variadic: `claude -p "…" --allowedTools
// Bash Read` gives two rules, where pflag would take "Bash" and leave
// "Read" as a stray argument. spreadLists rewrites the words after such
// a flag into one flag each, so scripts written for `claude -p` keep
// their meaning. A word is taken only while it has the shape of the
// flag's values (a tool rule, an existing directory, a JSON object or
// file): a prompt written after the flags ("--allowedTools Bash 'fix
// the tests'") stays the prompt. "--" ends the rewriting.

// listFlags are the flags that take several values, and the test a word
// after them must pass to be one of them.
var listFlags = map[string]func(string) bool{
	"--allowedTools":     isToolRule,
	"--allowed-tools":    isToolRule,
	"--disallowedTools":  isToolRule,
	"--disallowed-tools": isToolRule,
	"--tools":            isToolRule,
	"--add-dir":          isDir,
	"--mcp-config":       isMCPConfig,
}

// spreadLists is the rewriting described above.
func spreadLists(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, value, hasValue := strings.Cut(a, "=")
		shape, ok := listFlags[name]
		if !ok {
			out = append(out, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				out = append(out, a)
				continue
			}
			i++
			value = args[i]
		}
		values := []string{value}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && shape(args[i+1]) {
			i++
			values = append(values, args[i])
		}
		if name == "--tools" {
			// One value: --tools names the whole set.
			out = append(out, name+"="+strings.Join(values, ","))
			continue
		}
		for _, v := range values {
			out = append(out, name+"="+v)
		}
	}
	return out
}

// isToolRule: a Claude tool name or rule, "Bash", "Bash(git diff:*)",
// "mcp__github__get_issue", "Read,Edit" — a capital letter or mcp__
// first, and no space outside the parentheses.
func isToolRule(s string) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z' || strings.HasPrefix(s, "mcp__")) {
		return false
	}
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case (r == ' ' || r == '\n' || r == '\t') && depth == 0:
			// "Bash, Read" is one value written with a space.
			return false
		}
	}
	return depth == 0
}

// isDir: an existing directory.
func isDir(s string) bool {
	st, err := os.Stat(s)
	return err == nil && st.IsDir()
}

// isMCPConfig: a JSON object, or an existing file.
func isMCPConfig(s string) bool {
	if strings.HasPrefix(strings.TrimSpace(s), "{") {
		return true
	}
	st, err := os.Stat(s)
	return err == nil && st.Mode().IsRegular()
}
