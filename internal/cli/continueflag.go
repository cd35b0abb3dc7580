package cli

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/spf13/cobra"
)

// --continue and --resume are Claude Code's -c and -r: --continue (-c)
// goes on with the current directory's newest session and takes no
// value; --resume ID (-r ID) goes on with that session. A session id
// written after --continue would otherwise become a word of the prompt
// (or an unknown command), and the advice to quote it would fold the id
// into the prompt: strayContinueID catches it and names --resume.

// sessionIDShape matches what a session id (or the start of one) looks
// like: 20261203-102010-ab3c. Compiled on first use: at package init its
// {0,8} alone costs 16 KB on every start (cmd/synaps TestPackageInitIsLight).
var sessionIDShape = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d{8}-\d{6}(-[0-9a-z]{0,8})?$`)
})

// strayContinueID is the usage error for a session id among args given
// with --continue; nil when there is none.
func strayContinueID(cmd *cobra.Command, args []string) error {
	f := cmd.Flags().Lookup("continue")
	if f == nil || f.Value.String() != "true" {
		return nil
	}
	for _, a := range args {
		if sessionIDShape().MatchString(a) {
			return usageError{fmt.Errorf("--continue takes no session id: it goes on with this directory's newest session; to go on with session %s give --resume %s (or -r %s) instead of --continue", a, a, a)}
		}
	}
	return nil
}

// noArgsButID is cobra.NoArgs for the session commands (chat, acp,
// server), with a session id after --continue named as such.
func noArgsButID(cmd *cobra.Command, args []string) error {
	if err := strayContinueID(cmd, args); err != nil {
		return err
	}
	return cobra.NoArgs(cmd, args)
}
