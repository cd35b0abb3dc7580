package cli

// `synaps hooks`: the hook chain of a directory, seen and changed one hook
// at a time. This file is the command group; each subcommand is a file of
// its own (hooks_list.go, hooks_toggle.go, …).

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
)

// hooksFlags are the flags every hooks subcommand shares.
type hooksFlags struct {
	trustProject bool
}

// options are the app options of a hooks subcommand: this directory, the
// base dir, --trust-project.
func (f *hooksFlags) options() (app.Options, error) {
	base, err := baseDir()
	if err != nil {
		return app.Options{}, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return app.Options{}, err
	}
	return app.Options{BaseDir: base, WorkDir: wd, TrustProject: f.trustProject, Getenv: os.Getenv, Version: Version}, nil
}

// hooksSubcommands make the subcommands of `synaps hooks` beyond list,
// disable and enable. A subcommand's own file adds its maker in an init
// function, so that each lives in a file of its own and the group needs
// no edit.
var hooksSubcommands []func(Stdio, *hooksFlags) *cobra.Command

func newHooksCmd(stdio Stdio) *cobra.Command {
	f := &hooksFlags{}
	cmd := hooksListCmd(stdio, f)
	cmd.PersistentFlags().BoolVar(&f.trustProject, "trust-project", false, "count this project's hooks as a --trust-project run would")
	cmd.AddCommand(
		hooksToggleCmd(stdio, f, "disable"),
		hooksToggleCmd(stdio, f, "enable"),
	)
	for _, sub := range hooksSubcommands {
		cmd.AddCommand(sub(stdio, f))
	}
	return cmd
}
