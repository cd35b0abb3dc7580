package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/conformance"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
)

func extTestCmd(stdio Stdio) *cobra.Command {
	var asJSON bool
	var calls []string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "test DIR|ID",
		Short: "Run an extension without a model and check it against the authoring checklist",
		Long: `test starts the extension in DIR the way synaps would, with no model:
it checks the manifest, the framing, the handshake and the permissions,
calls every tool with an input built from its schema (or --call
tool='{"json":1}'), sends every subscribed hook a sample event, sends an
unknown method and then shutdown. Each checklist line passes or fails with
the reason; the exit code is 1 when any line fails, and 2 when DIR is a
Claude Code plugin, which has no extension process to test (synaps
plugins validate checks it). An ID that is not a
directory here names an installed plugin (plugins/ID in the base directory).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if timeout < 0 {
				return usageError{fmt.Errorf("--timeout %v: give how long to wait for each answer, e.g. 5s (0: the defaults)", timeout)}
			}
			fixtures := map[string]json.RawMessage{}
			for _, c := range calls {
				name, input, ok := strings.Cut(c, "=")
				if !ok || !json.Valid([]byte(input)) {
					return usageError{fmt.Errorf("--call %q: write it as TOOL='{\"json\":\"input\"}'", c)}
				}
				fixtures[name] = json.RawMessage(input)
			}
			dir := args[0]
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				// Not a directory here: an installed plugin's id.
				found := false
				base, berr := baseDir()
				if berr == nil {
					if fi, err := os.Stat(filepath.Join(base, "plugins", dir)); err == nil && fi.IsDir() && !strings.ContainsAny(dir, `/\`) {
						dir = filepath.Join(base, "plugins", dir)
						found = true
						fmt.Fprintf(stdio.Err, "testing the installed plugin %s (%s)\n", args[0], dir)
					}
				}
				// Neither: say so, rather than fail the checklist's first
				// line about a manifest in a directory that is not there.
				if !found && errors.Is(err, fs.ErrNotExist) {
					msg := fmt.Sprintf("%s: no such directory", args[0])
					if berr == nil && !strings.ContainsAny(args[0], `/\`) {
						msg += fmt.Sprintf(", and no plugin %q is installed in %s", args[0], filepath.Join(base, "plugins"))
					}
					return usageError{errors.New(msg + "; give the extension's directory (synaps extensions test ./my-ext) or an installed plugin's id (synaps extensions list shows them)")}
				}
			}
			if err := notAFile(dir, "test"); err != nil {
				return err
			}
			// A Claude Code plugin starts no process: there is nothing
			// for the checklist to run, which is not the plugin's fault,
			// so it is a wrong argument (exit 2), not a failed check.
			if abs, err := filepath.Abs(dir); err == nil {
				if p := plugin.LoadPlugin(filepath.Base(abs), abs, plugin.ScopeUser); p.Err == nil && p.Manifest != nil && (p.Manifest.Claude || p.Manifest.Format == plugin.FormatGemini) && p.Manifest.Extension == nil && p.ExtensionErr == nil {
					return exitError{code: ExitUsage, msg: fmt.Sprintf("%s is a %s (it brings %s): it has no extension process, so `synaps extensions test` has nothing to run; `synaps plugins validate %s` checks its hooks, commands and agents", args[0], p.Manifest.Format.Title(), partList(p.Parts()), dir)}
				}
			}
			rep := conformance.Run(cmd.Context(), dir, conformance.Options{Timeout: timeout, Calls: fixtures})
			if asJSON {
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				enc.Encode(rep)
			} else {
				printReport(stdio, rep)
			}
			if !rep.Passed {
				return exitError{code: ExitError}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON (for CI)")
	cmd.Flags().StringArrayVar(&calls, "call", nil, "tool input to use: TOOL='{...}' (repeatable)")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "how long to wait for each answer (default 5s; initialize 10s and shutdown 2s, as synaps waits)")
	return cmd
}

func printReport(stdio Stdio, rep *conformance.Report) {
	color := colorOn(stdio.Out)
	r := &renderer{color: color}
	fails, warns := 0, 0
	for _, c := range rep.Checks {
		mark := map[string]string{
			conformance.CheckPass: r.style("32", "[pass]"),
			conformance.CheckWarn: r.style("33", "[warn]"),
			conformance.CheckFail: r.style("31", "[FAIL]"),
			conformance.CheckSkip: r.style("2", "[skip]"),
		}[c.Status]
		switch c.Status {
		case conformance.CheckFail:
			fails++
		case conformance.CheckWarn:
			warns++
		}
		if c.Status == conformance.CheckPass && c.Detail != "" && !strings.Contains(c.Detail, "\n") {
			fmt.Fprintf(stdio.Out, "%s %s %s\n", mark, c.Name, r.style("2", "— "+c.Detail))
			continue
		}
		fmt.Fprintf(stdio.Out, "%s %s\n", mark, c.Name)
		if c.Detail != "" {
			for _, l := range strings.Split(c.Detail, "\n") {
				fmt.Fprintf(stdio.Out, "       %s\n", l)
			}
		}
	}
	if len(rep.Stderr) > 0 && fails > 0 {
		fmt.Fprintln(stdio.Out, "stderr of the extension:")
		for _, l := range rep.Stderr[max(0, len(rep.Stderr)-10):] {
			fmt.Fprintf(stdio.Out, "  | %s\n", l)
		}
	}
	switch {
	case fails == 0 && warns > 0:
		fmt.Fprintf(stdio.Out, "ok: %s passes every check, with %s above\n", rep.Dir, plural.Count(warns, "warning"))
	case fails == 0:
		fmt.Fprintf(stdio.Out, "ok: %s passes every check\n", rep.Dir)
	default:
		fmt.Fprintf(stdio.Out, "%s failed\n", plural.Count(fails, "check"))
	}
}

// notAFile is the usage error for a plugin argument that names a file
// (main.py, plugin.json) instead of the plugin's directory: read as a
// directory, it failed with "not a directory. Check the file's
// permissions", which sends the author the wrong way.
func notAFile(arg, verb string) error {
	fi, err := os.Stat(arg)
	if err != nil || fi.IsDir() {
		return nil
	}
	dir := filepath.Dir(arg)
	if filepath.Base(dir) == ".synaps-plugin" {
		dir = filepath.Dir(dir)
	}
	return usageError{fmt.Errorf("%s is a file; give the plugin's directory, the one holding .synaps-plugin/plugin.json (synaps extensions %s %s)", arg, verb, dir)}
}
