package cli

// Command groups (`synaps extensions`, `sessions`, `mcp`, `daemon`,
// `sandbox`, `extensions cache`, `extensions marketplace`) hold
// subcommands and do nothing themselves. Cobra answers such a group
// given an unknown word with the group's help and exit 0, so a typo —
// `synaps extensions instal ./my-ext` — looked like it had worked. Here a
// group's unknown subcommand is a usage error (exit 2) that names it and
// suggests the nearest, as the root does for `synaps extenions`.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// unknownSubcommand is the Args of a command whose arguments can only be
// subcommands: none is fine (the command runs), a word cobra did not
// match against a subcommand is an unknown command, with suggestions.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return usageError{errors.New(msg)}
}

// requireSubcommands makes every group under root (a command with
// subcommands and nothing to run) print its help when run alone, as
// before, and refuse an unknown subcommand with unknownSubcommand.
// Cobra never checks the arguments of a command it cannot run, so the
// group gets a run that prints the help; its usage line stays without
// "[flags]", since flags alone do nothing there.
func requireSubcommands(root *cobra.Command) {
	for _, c := range root.Commands() {
		requireSubcommands(c)
		if !c.HasSubCommands() || c.Runnable() {
			continue
		}
		c.Args = unknownSubcommand
		c.DisableFlagsInUseLine = true
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
}
