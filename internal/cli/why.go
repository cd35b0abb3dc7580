package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
)

// `synaps why SESSION [CALL]`: for a call a session recorded, the same
// breakdown `synaps hooks test` prints — who judged it in what order,
// what each said and how long it took, the rule or mode, the verdict —
// read from the session's records.

func newWhyCmd(stdio Stdio) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "why SESSION [CALL]",
		Short: "Say why a recorded tool call was allowed, blocked or asked about",
		Long: `Print what decided a tool call of a recorded session: each link of the
hook chain in order (judged, could not judge and why, not matched), what
it said and how long it took, the permission rule or mode, and the
verdict. CALL is the call's tool_use id or its number in the session
(1 is the first; a subagent's calls come right after the agent call
that started it); the
default is the last call.`,
		Example: `  synaps why 20261204-153000-k3f9
  synaps why 20261204-153000-k3f9 toolu_01ABC --json`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			id, calls, err := openRecorded(base, args[0])
			if err != nil {
				return err
			}
			if len(calls) == 0 {
				return fmt.Errorf("session %s made no tool calls", id)
			}
			i := len(calls) - 1
			if len(args) == 2 {
				if i, err = pickCall(calls, args[1]); err != nil {
					return usageError{fmt.Errorf("why %s %s: %w", id, args[1], err)}
				}
			}
			c := calls[i]
			if c.Report == nil {
				return errors.New("session " + id + " was recorded before synaps kept call reports, so it does not say what decided call " + c.ID +
					"; its result was: " + c.was().describe() + ". `synaps replay " + id + "` judges its calls under today's chain")
			}
			if asJSON {
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(c.Report)
			}
			out := Stdio{In: stdio.In, Out: printableWriter{stdio.Out}, Err: printableWriter{stdio.Err}}
			fmt.Fprintf(out.Out, "session %s, call %d of %d (%s)\n", id, i+1, len(calls), c.ID)
			writeCallReport(out.Out, c.Report)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the call's report as JSON")
	return cmd
}

// pickCall finds a call by tool_use id or 1-based number.
func pickCall(calls []recordedCall, which string) (int, error) {
	for i, c := range calls {
		if c.ID == which {
			return i, nil
		}
	}
	if n, err := strconv.Atoi(which); err == nil {
		if n >= 1 && n <= len(calls) {
			return n - 1, nil
		}
		return 0, fmt.Errorf("the session has %d tool calls; give a number from 1 to %d, or a tool_use id", len(calls), len(calls))
	}
	return 0, fmt.Errorf("no tool call with id %q in the session; give its tool_use id or its number (1 to %d)", which, len(calls))
}
