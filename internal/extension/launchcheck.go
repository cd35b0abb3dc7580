package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// CheckLaunch says, without starting anything, why the plugin's extension
// could not start on this machine: the command is not on PATH or does not
// exist, or the script an interpreter is told to run does not exist. It is
// what `synaps extensions validate` and `test` check before they call a
// plugin valid or start it, so a typo in entry_point is named at once
// rather than as "the process ended during initialize". getenv is the
// environment of the child (nil: os.Getenv). A launch line that needs a
// shell is not second-guessed: only the shell itself is looked for.
func CheckLaunch(p *plugin.Plugin, getenv func(string) string) error {
	m := p.Manifest.Extension
	if m == nil {
		return nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	field := "extension.entry_point"
	if m.Command != "" {
		field = "extension.command"
	}
	argv, shell, err := m.Argv(envLookup(childEnv(getenv, p, "")))
	if err != nil {
		return fmt.Errorf("%s: %s: %w", p.Manifest.File, field, err)
	}
	if _, err := resolveCommand(argv[0], p.Dir); err != nil {
		// A command the plugin's setup script builds: say so (validate
		// and test run before install, which runs the script).
		return fmt.Errorf("%s: %s: %w%s", p.Manifest.File, field, err, setupHint(p, os.ErrNotExist))
	}
	if shell {
		return nil
	}
	if script := scriptArg(argv); script != "" {
		path := script
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.Dir, path)
		}
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("%s: %s: %s would run %s, which does not exist (paths are relative to the plugin root %s); fix the name or create the file", p.Manifest.File, field, filepath.Base(argv[0]), script, p.Dir)
		}
	}
	return nil
}

// interpreters are commands whose first non-option argument is a script
// file; deno and bun take it after "run".
var interpreters = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|perl|php|bash|sh|zsh|dash|lua|tsx|ts-node|deno|bun)$`)
})

// scriptArg returns the script an interpreter command line runs, or "" when
// argv does not name one (not an interpreter, python -m, node -e, sh -c …)
// or the guess would be unsafe: only an argument with a slash or a file
// extension counts, so a wrong guess can miss a typo but never fail a
// working plugin.
func scriptArg(argv []string) string {
	name := filepath.Base(argv[0])
	if !interpreters().MatchString(name) {
		return ""
	}
	args := argv[1:]
	if (name == "deno" || name == "bun") && len(args) > 0 && args[0] == "run" {
		args = args[1:]
	}
	for _, a := range args {
		switch {
		case a == "-m" || a == "-c" || a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-":
			return "" // code from the command line or a module, not a file
		case strings.HasPrefix(a, "-"):
			continue
		case strings.ContainsRune(a, '/') || fileExt().MatchString(a):
			return a
		}
		// Anything else may be an option's value (python3 -W ignore
		// main.py): never guess a file from it.
	}
	return ""
}

// fileExt matches a name that ends in a file extension (main.py, index.mjs).
var fileExt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^./]\.[A-Za-z0-9]+$`) })
