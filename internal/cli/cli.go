// Package cli parses synaps's command line and calls into internal/app.
// It holds flags, wording and output formats; the work is done elsewhere.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/config"
)

// Version is set at build time with -ldflags "-X .../internal/cli.Version=…".
var Version = "0.1.0-dev"

// Exit codes.
const (
	ExitOK    = 0 // success
	ExitError = 1 // the command failed (a model error, a failed check …)
	ExitUsage = 2 // the command line was wrong
)

// Stdio are the streams a command reads and writes.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// usageError marks errors in the command line itself (exit 2).
type usageError struct{ error }

// Main runs synaps with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdio Stdio) int {
	if stdio.In == nil {
		stdio.In = strings.NewReader("")
	}
	root := newRoot(stdio)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") || strings.Contains(err.Error(), "accepts ") || strings.Contains(err.Error(), "requires at least") {
		fmt.Fprintln(stdio.Err, "synaps:", err)
		fmt.Fprintln(stdio.Err, "Run 'synaps --help' for usage.")
		return ExitUsage
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stdio.Err, "synaps:", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stdio.Err, "synaps:", err)
	return ExitError
}

// exitError ends a command with a given code (and an optional message),
// after the command already reported what went wrong.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// globals are the flags every session-starting command shares.
type globals struct {
	model        string
	noExtensions bool
	cont         bool
	resume       string
	autoApprove  bool
	trustProject bool
}

func newRoot(stdio Stdio) *cobra.Command {
	g := &globals{}
	var prompt, format string
	root := &cobra.Command{
		Use:   "synaps",
		Short: "A terminal agent runtime with process-based extensions",
		Long: `synaps is a terminal AI agent. Extensions — separate processes in any
language — add tools and hook every step of the agent's work.

Without arguments it starts the interactive terminal UI; -p runs one
prompt and prints the answer; 'synaps chat' is a line-oriented session for
pipes and scripts; 'synaps demo' shows everything working offline.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("print") {
				return runPrint(cmd.Context(), g, prompt, format, stdio)
			}
			return runInteractive(cmd.Context(), g, stdio)
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.model, "model", "", "model: anthropic/<m>, openai/<m>, <plugin>:<provider>:<m>, script:FILE")
	pf.BoolVar(&g.noExtensions, "no-extensions", false, "start no extensions")
	pf.BoolVar(&g.cont, "continue", false, "continue the most recent session")
	pf.StringVar(&g.resume, "resume", "", "resume the session with this id")
	pf.BoolVar(&g.autoApprove, "auto-approve-confirms", false, "approve every extension confirm request without asking")
	pf.BoolVar(&g.trustProject, "trust-project", false, "load this project's .synaps/plugins for this run without asking")
	root.Flags().StringVarP(&prompt, "print", "p", "", "run one prompt, print the answer and exit")
	root.Flags().StringVar(&format, "output-format", "text", "with -p: text, json or stream-json")

	root.AddCommand(
		&cobra.Command{
			Use:   "version",
			Short: "Print the synaps version",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				_, err := fmt.Fprintf(stdio.Out, "synaps %s (%s, %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
				return err
			},
		},
		newChatCmd(g, stdio),
		newDemoCmd(stdio),
		newExtensionsCmd(stdio),
		newSessionsCmd(g, stdio),
		newTrustCmd(stdio),
		newExtensionProcessCmd(),
	)
	return root
}

// baseDir resolves $SYNAPS_BASE_DIR or ~/.synaps-cli and creates it with
// its plugins/ directory: every command that reads the base dir comes
// through here, so after any one of them the guide's install step (a
// plain cp or ln -s into plugins/) works.
func baseDir() (string, error) {
	base, err := config.BaseDir(os.Getenv)
	if err != nil {
		return "", err
	}
	return base, config.EnsureBaseDir(base)
}
