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
	"github.com/spf13/pflag"

	"github.com/synaps-cli/synaps/internal/config"
)

// Version is set at build time with -ldflags "-X .../internal/cli.Version=…".
var Version = "0.1.0-dev"

// OnlyVersion reports whether args ask for the version and nothing else
// (version, --version or -v alone): then Main prints it without building
// the command tree, and cmd/synaps skips its process set-up.
func OnlyVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "version" || args[0] == "--version" || args[0] == "-v")
}

// versionLine is what `synaps version`, --version and -v print.
func versionLine() string {
	return "synaps " + Version + " (" + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
}

// Exit codes, as docs/headless.md lists them for scripts.
const (
	ExitOK          = 0   // success
	ExitError       = 1   // the command failed (a model error, a failed check …)
	ExitUsage       = 2   // the command line was wrong
	ExitLimit       = 3   // a limit the user set (--max-turns, --max-tool-calls, --max-budget-usd, --timeout) stopped the run; the session is saved
	ExitInterrupted = 130 // SIGINT (Ctrl-C) ended the command; 128+2 as shells report it
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
	prepareBaseDir()
	// The version alone needs no command tree: building cobra's tree of
	// every command and flag costs more than printing the line.
	if OnlyVersion(args) {
		if _, err := io.WriteString(stdio.Out, versionLine()); err != nil {
			fmt.Fprintln(stdio.Err, "synaps:", err)
			return ExitError
		}
		return ExitOK
	}
	if stdio.In == nil {
		stdio.In = strings.NewReader("")
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	root := newRoot(stdio)
	if completing(args) {
		// Only a completion request needs the completion functions:
		// wiring them walks the whole tree (≈ 2 ms of every start).
		registerCompletions(root)
	}
	root.SetArgs(spreadLists(barePrint(args, root.Flags(), root.PersistentFlags())))
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stdio.Err, "synaps:", ee.msg)
		}
		return ee.code
	}
	if interrupted(ctx) {
		fmt.Fprintln(stdio.Err, "synaps: interrupted")
		return ExitInterrupted
	}
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") || strings.Contains(err.Error(), "accepts ") || strings.Contains(err.Error(), "requires at least") {
		fmt.Fprintln(stdio.Err, "synaps:", err)
		// Cobra's "accepts 1 arg(s), received 0" names no argument: the
		// command's usage line does (synaps why SESSION [CALL]).
		if cmd != nil && cmd.HasParent() && strings.Contains(err.Error(), " arg(s)") {
			fmt.Fprintf(stdio.Err, "Usage: %s\n", cmd.UseLine())
		}
		// The help of the command that was run, not always the root's.
		path := "synaps"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(stdio.Err, "Run '%s --help' for usage.\n", path)
		return ExitUsage
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
	appendSystem string
	maxTurns     int
	limits       limits
	effort       string
	// permissionMode, allowed and disallowed are --permission-mode,
	// --allowedTools and --disallowedTools, read by appOptions.
	permissionMode      string
	allowed, disallowed []string
	skipPermissions     bool
	// detachable is --detachable: the UI runs in the session daemon.
	detachable bool
}

func newRoot(stdio Stdio) *cobra.Command {
	g := &globals{}
	var pr printOpts
	var showVersion bool
	root := &cobra.Command{
		Use:   "synaps",
		Short: "A terminal agent runtime with process-based extensions",
		Long: `synaps is a terminal AI agent. Extensions — separate processes in any
language — add tools and hook every step of the agent's work.

Without arguments it starts the interactive terminal UI; -p runs one
prompt and prints the answer (the prompt, or stdin, or both: stdin is then
attached to the prompt); 'synaps chat' is a line-oriented session for pipes
and scripts; 'synaps demo' shows everything working offline.

Exit codes: 0 success, 1 error, 2 usage error, 3 a limit you set
(--max-turns, --max-tool-calls, --max-budget-usd, --timeout) stopped the
run, 130 interrupted (Ctrl-C; the session is saved and can be resumed).`,
		Example: `  synaps                                   start the terminal UI
  synaps demo                              see tools and extensions work, offline
  synaps -p "what does this repo do?"      one prompt, the answer on stdout
  git diff | synaps -p "write a commit message"
                                           stdin is attached to the prompt
  synaps -p < prompt.md                    the prompt is stdin
  synaps -p "list the TODOs" --output-format json | jq -r .result
  synaps -p "and the tests?" --continue    go on with this directory's latest session
  synaps sessions list                     saved sessions; resume with --resume ID
  synaps extensions list                   plugins, their extensions and status
  source <(synaps completion bash)         complete flags, models, sessions, plugins`,
		Args:          rootArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if showVersion {
				_, err := io.WriteString(stdio.Out, versionLine())
				return err
			}
			if cmd.Flags().Changed("print") {
				if g.detachable {
					return usageError{errors.New("--detachable is for the interactive UI; -p runs its prompt to the end in this process (synaps rpc or synaps server drive a session from a program)")}
				}
				return runPrint(cmd.Context(), g, pr.prompt, args, pr.flags, stdio)
			}
			if err := printOnly(cmd.Flags()); err != nil {
				return err
			}
			return runInteractive(cmd.Context(), cmd, g, stdio)
		},
	}
	root.SuggestionsMinimumDistance = 2
	// --version is synaps's own flag, not cobra's: cobra prints "synaps
	// version X" unless given a template, and a template links
	// text/template, which costs about 5 MB of binary (see
	// scaffold.expand). Cobra's flag did what this one does: with any
	// other flags and arguments it prints the version and nothing else.
	root.Flags().BoolVarP(&showVersion, "version", "v", false, "version for synaps")
	g.addFlags(root.Flags())
	pr.add(root.Flags())
	root.Flags().BoolVar(&g.detachable, "detachable", false, "run the session in the session daemon: quitting detaches and the turn goes on; synaps attach comes back (config detachable = true makes it the default)")

	root.AddCommand(
		&cobra.Command{
			Use:   "version",
			Short: "Print the synaps version (also: synaps --version)",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				_, err := io.WriteString(stdio.Out, versionLine())
				return err
			},
		},
		newChatCmd(g, stdio),
		newACPCmd(g, stdio),
		newRPCCmd(g, stdio),
		newServerCmd(g, stdio),
		newDemoCmd(stdio),
		newExtensionsCmd(stdio),
		newSessionsCmd(g, stdio),
		newTrustCmd(stdio),
		newMCPCmd(g, stdio),
		newExtensionProcessCmd(),
		newAttachCmd(stdio),
		newSendCmd(stdio),
		newDaemonCmd(stdio),
		newSandboxCmd(stdio),
		newHooksCmd(g, stdio),
		newWhyCmd(stdio),
		newReplayCmd(g, stdio),
	)
	// Cobra adds `completion` only when it executes; added here, its
	// unknown shells are refused by requireSubcommands as well.
	root.InitDefaultCompletionCmd()
	requireSubcommands(root)
	// The commands that open a session take the session flags.
	for _, path := range []string{"chat", "acp", "rpc", "server", "sessions resume", "mcp serve", "hooks test", "replay"} {
		if c, _, err := root.Find(strings.Fields(path)); err == nil && c != root {
			g.addFlags(c.Flags())
		}
	}
	// mcp list and get start the configured servers of a trusted project.
	for _, path := range []string{"mcp list", "mcp get"} {
		if c, _, err := root.Find(strings.Fields(path)); err == nil && c != root {
			c.Flags().BoolVar(&g.trustProject, "trust-project", false, "include this project's MCP files (.mcp.json, .cursor/mcp.json, .synaps/mcp.json) without trusting it for good")
		}
	}
	// attach passes the session flags on to a session it starts.
	if c, _, err := root.Find([]string{"attach"}); err == nil && c != root {
		(&globals{}).addFlags(c.Flags())
	}
	return root
}

// addFlags defines the session flags on fs: every command that opens a
// session (the UI, -p, chat, rpc, server, acp, mcp serve, sessions
// resume, attach) takes them as flags of its own. They are not the
// root's persistent flags: version, completion, trust, extensions …
// would list flags that do nothing there.
func (g *globals) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.model, "model", "", "model: anthropic/<m>, openai/<m>, <plugin>:<provider>:<m>, script:FILE")
	fs.BoolVar(&g.noExtensions, "no-extensions", false, "start no extensions")
	fs.BoolVarP(&g.cont, "continue", "c", false, "continue the most recent session of the current directory")
	fs.StringVarP(&g.resume, "resume", "r", "", "resume the session with this `ID` or a unique start of it (without ID the terminal UI offers a list)")
	fs.BoolVar(&g.autoApprove, "auto-approve-confirms", false, "approve every extension confirm request without asking")
	fs.BoolVar(&g.trustProject, "trust-project", false, "load this project's .synaps/plugins (and the permission mode and allow rules of its .synaps/config) for this run without asking")
	fs.StringVar(&g.permissionMode, "permission-mode", "", "`MODE`: default (ask before bash, write, edit), acceptEdits, plan (read-only) or bypassPermissions")
	fs.StringArrayVar(&g.allowed, "allowedTools", nil, "`RULES` that run without asking, e.g. 'Bash(git status:*) Edit(docs/**)' (repeatable; also --allowed-tools)")
	fs.StringArrayVar(&g.disallowed, "disallowedTools", nil, "`RULES` that are refused, e.g. 'Bash(rm:*)' (repeatable; also --disallowed-tools)")
	fs.StringArrayVar(&g.allowed, "allowed-tools", nil, "same as --allowedTools")
	fs.StringArrayVar(&g.disallowed, "disallowed-tools", nil, "same as --disallowedTools")
	fs.BoolVar(&g.skipPermissions, "dangerously-skip-permissions", false, "same as --permission-mode bypassPermissions")
	fs.MarkHidden("allowed-tools")
	fs.MarkHidden("disallowed-tools")
	fs.StringVar(&g.appendSystem, "append-system-prompt", "", "add `TEXT` to the end of the system prompt")
	fs.IntVar(&g.maxTurns, "max-turns", 0, "stop a message's work after `N` model requests (0: no limit)")
	fs.StringVar(&g.effort, "effort", "", "how hard the model thinks: off, low, medium, high, max (default: config effort, else the model's)")
	fs.IntVar(&g.limits.maxToolCalls, "max-tool-calls", 0, "stop the run after `N` tool calls (0: no limit)")
	fs.Float64Var(&g.limits.maxBudgetUSD, "max-budget-usd", 0, "stop the run before a model request once it has cost `DOLLARS` (0: no limit)")
	fs.DurationVar(&g.limits.timeout, "timeout", 0, "stop the run after `DURATION` of wall-clock time, e.g. 10m (0: none)")
}

// printOpts are -p and the flags that shape its run; the root command
// and `sessions resume` both take them.
type printOpts struct {
	prompt string
	flags  printFlags
}

// add defines -p/--print, --output-format, --input-format and --verbose
// on fs.
func (o *printOpts) add(fs *pflag.FlagSet) {
	fs.StringVarP(&o.prompt, "print", "p", "", "run one `PROMPT`, print the answer and exit; without PROMPT (or with -) it is read from stdin; with both, piped stdin is attached to PROMPT")
	fs.StringVar(&o.flags.format, "output-format", "text", "with -p: text, json or stream-json (Claude Code's shapes)")
	fs.StringVar(&o.flags.inputFormat, "input-format", "text", "with -p: text, or stream-json (one user message per stdin line, Claude Code's shape)")
	fs.Bool("verbose", false, "accepted for Claude Code compatibility (stream-json needs no --verbose here)")
	o.flags.claude.add(fs)
}

// rootArgs allows arguments only with -p (they are the prompt, checked by
// printPrompt) or --version (which ignores them, as cobra's did); anything
// else is an unknown command, said as cobra says it.
func rootArgs(cmd *cobra.Command, args []string) error {
	if err := strayContinueID(cmd, args); err != nil {
		return err
	}
	if v, _ := cmd.Flags().GetBool("version"); v || len(args) == 0 || cmd.Flags().Changed("print") {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	} else {
		msg += fmt.Sprintf("\n\nTo run it as a prompt: synaps -p %q", strings.Join(args, " "))
	}
	return usageError{errors.New(msg)}
}

// prepareBaseDir creates the base directory and its plugins/ before any
// command runs — version, demo and extensions validate/test too, which
// never read it — so that the README's "the first synaps command you run
// creates the directory" holds and the guide's install step (cp -r into
// plugins/) works after any of them. It is one stat when both exist. A
// failure is not said here: a read-only HOME must not stop a command
// that does not need the directory; those that do (baseDir) say why.
func prepareBaseDir() {
	if base, err := config.BaseDir(os.Getenv); err == nil {
		_ = config.EnsureBaseDir(base)
	}
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
