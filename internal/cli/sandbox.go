package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

func newSandboxCmd(stdio Stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "sandbox",
		Short: "What the kernel confines and how (status), and one command confined (run)",
		Long: `On Linux, everything synaps starts runs confined: the bash tool's
commands, extensions, Claude Code hooks, MCP stdio servers and command
expansions, each by its policy — files by Landlock, system calls by
seccomp, the network by a namespace whose only way out is synaps's proxy.
docs/sandbox.md says what each policy allows and which settings change it.`,
	}
	c.AddCommand(&cobra.Command{
		Use:   "status",
		Short: "Say what the kernel offers and what each policy allows",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return sandboxStatus(stdio)
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "run -- COMMAND [ARGS...]",
		Short: "Run one command under the bash tool's policy, to see what it may do",
		Long: `Run one command under the bash tool's policy in this directory (the
project): what the model's commands may read, write and reach. What the
sandbox refused is said on stderr, with the setting that allows it. The
exit status is the command's.`,
		Example: `  synaps sandbox run -- cat ~/.ssh/id_rsa      refused: a credential store
  synaps sandbox run -- touch /etc/x           refused: outside the project
  synaps sandbox run -- go test ./...          what the model's go test may do`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sandboxRun(stdio, args)
		},
	})
	return c
}

// sandboxSettings reads the sandbox settings for the project in cwd.
func sandboxSettings() (sandbox.Config, sandbox.Env, error) {
	base, err := baseDir()
	if err != nil {
		return sandbox.Config{}, sandbox.Env{}, err
	}
	return sandboxSettingsIn(base)
}

// sandboxSettingsIn reads the sandbox settings of base directory base
// for the project in cwd.
func sandboxSettingsIn(base string) (sandbox.Config, sandbox.Env, error) {
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil {
		return sandbox.Config{}, sandbox.Env{}, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return sandbox.Config{}, sandbox.Env{}, err
	}
	trusted, _ := plugin.IsTrusted(base, wd)
	e := sandbox.NewEnv(wd)
	return sandbox.ReadConfig(cfg, wd, e.Home, trusted), e, nil
}

func sandboxStatus(stdio Stdio) error {
	base, err := baseDir()
	if err != nil {
		return err
	}
	c, e, err := sandboxSettingsIn(base)
	if err != nil {
		return err
	}
	f := sandbox.Detect()
	w := stdio.Out
	for _, l := range f.Lines() {
		fmt.Fprintln(w, l)
	}
	for _, warn := range c.Warnings {
		fmt.Fprintln(w, "warning:", warn)
	}
	fmt.Fprintf(w, "required: %v (sandbox.required: what the kernel cannot confine is %s)\n", c.Required, map[bool]string{true: "not started", false: "started unconfined, said once per session"}[c.Required])
	if !c.Bash {
		fmt.Fprintln(w, "bash: not confined (sandbox.bash = off)")
	} else {
		fmt.Fprintln(w, "bash:")
		for _, l := range sandbox.BashPolicy(e, c).Describe() {
			fmt.Fprintln(w, "  "+l)
		}
	}
	printPluginPolicies(w, base, c, e)
	return nil
}

// printPluginPolicies lists what each plugin that would load here may do:
// its extension, sidecar, Claude hooks and MCP servers all run under it.
// The settings files' Claude hooks and the user's MCP servers run under
// the default policy, without directories of their own.
func printPluginPolicies(w io.Writer, base string, c sandbox.Config, e sandbox.Env) {
	cfg, _ := config.Load(filepath.Join(base, "config"))
	trusted, _ := plugin.IsTrusted(base, e.Project)
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: base, ProjectDir: e.Project, TrustProject: trusted, Disabled: cfg.List("disabled_plugins")})
	n := 0
	for _, p := range plugins {
		if p.Err != nil || p.Disabled || p.Untrusted {
			continue
		}
		if n == 0 {
			fmt.Fprintln(w, "plugins (their extensions, sidecars, Claude hooks and MCP stdio servers):")
		}
		n++
		fmt.Fprintf(w, "  %s:\n", p.ID)
		for _, l := range app.PluginSandbox(c, base, e.Project, p, e.Getenv) {
			fmt.Fprintln(w, "    "+l)
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "plugins: none loaded")
	}
	if c.Plugins {
		fmt.Fprintln(w, "Claude hooks of settings files, MCP stdio servers of your and the project's config: the default policy, without directories of their own")
	} else {
		fmt.Fprintln(w, "Claude hooks of settings files, MCP stdio servers of your and the project's config: not confined (sandbox.plugins = off)")
	}
}

func sandboxRun(stdio Stdio, args []string) error {
	c, e, err := sandboxSettings()
	if err != nil {
		return err
	}
	p := sandbox.BashPolicy(e, c)
	path, err := exec.LookPath(args[0])
	if err != nil {
		return exitError{code: 127, msg: fmt.Sprintf("%s: command not found", args[0])}
	}
	cmd := exec.Command(path, args[1:]...)
	cmd.Args[0] = args[0]
	cmd.Dir = e.Project
	cmd.Stdin = stdio.In
	cmd.Stdout = stdio.Out
	var errCopy bytes.Buffer
	cmd.Stderr = io.MultiWriter(stdio.Err, &errCopy)
	var said []string
	release, err := sandbox.Wrap(cmd, p, func(s string) { said = append(said, s) })
	if err != nil {
		return exitError{code: ExitError, msg: err.Error()}
	}
	runErr := cmd.Run()
	release()
	for _, l := range append(said, p.Blocked(e.Project, errCopy.String())...) {
		fmt.Fprintln(stdio.Err, "synaps: "+l)
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) {
		code := ee.ExitCode()
		if code < 0 {
			code = 128 + 9
			if ws := strings.TrimPrefix(ee.String(), "signal: "); ws != ee.String() {
				return exitError{code: code, msg: "the command was killed: " + ws}
			}
		}
		return exitError{code: code}
	}
	if runErr != nil {
		return exitError{code: ExitError, msg: runErr.Error()}
	}
	return nil
}
