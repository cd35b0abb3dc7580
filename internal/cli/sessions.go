package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
)

func newSessionsCmd(g *globals, stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{Use: "sessions", Short: "List, show and resume saved sessions"}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List sessions, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			infos, warnings, err := session.ListWarn(base)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintln(stdio.Err, "warning: "+w)
			}
			if asJSON {
				if infos == nil {
					infos = []session.Info{}
				}
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			fmt.Fprint(stdio.Out, app.FormatSessions(infos))
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print a session's conversation",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			if err := session.CheckID(args[0]); err != nil {
				return usageError{fmt.Errorf("sessions show: %w", err)}
			}
			id, err := session.Resolve(base, args[0])
			if err != nil {
				return err
			}
			d, err := session.Read(filepath.Join(session.Dir(base), id+".jsonl"))
			if err != nil {
				return err
			}
			// Everything shown is stored text: escapes are neutralised.
			stdio := Stdio{In: stdio.In, Out: printableWriter{stdio.Out}, Err: printableWriter{stdio.Err}}
			model := d.Header.Model
			if d.Model != "" {
				model = d.Model // the model it switched to last
			}
			fmt.Fprintf(stdio.Out, "session %s · %s · %s\n", d.Header.ID, model, d.Header.Cwd)
			if d.Compaction != nil {
				fmt.Fprintf(stdio.Out, "\n[continues %s; summary]\n%s\n", d.Compaction.From, d.Compaction.Summary)
			}
			kids := map[string]*session.Subagent{}
			for _, sa := range d.Subagents {
				kids[sa.ParentToolUseID] = sa
			}
			for _, m := range d.Messages {
				printMessage(stdio, m, kids, "")
			}
			// A child whose agent call is not in the conversation (a
			// damaged line) is shown all the same.
			for _, sa := range d.Subagents {
				if kids[sa.ParentToolUseID] == sa {
					printSubagent(stdio, sa, "")
				}
			}
			if d.Skipped > 0 {
				fmt.Fprintf(stdio.Out, "\n(%s skipped)\n", plural.Count(d.Skipped, "damaged line"))
			}
			for _, w := range d.Warnings() {
				fmt.Fprintln(stdio.Err, "warning: "+w)
			}
			return nil
		},
	}
	var pr printOpts
	resume := &cobra.Command{
		Use:   "resume ID",
		Short: "Continue a session in the interactive UI (or with -p PROMPT)",
		Long: `Continue a saved session: in the interactive UI, or, with -p PROMPT,
headless as synaps -p PROMPT --resume ID does (--output-format and
--input-format work as they do there).`,
		Example: `  synaps sessions resume 20261203-102010-ab3c
  synaps sessions resume 20261203-102010-ab3c -p "and the tests?"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.resume != "" && g.resume != args[0] || g.cont {
				return usageError{fmt.Errorf("sessions resume %s already names the session; drop --resume/--continue", args[0])}
			}
			if err := session.CheckID(args[0]); err != nil {
				return usageError{fmt.Errorf("sessions resume: %w", err)}
			}
			g.resume = args[0]
			if cmd.Flags().Changed("print") {
				// The words after the id are -p's prompt, as after
				// `synaps -p --model m` (printPrompt checks them).
				return runPrint(cmd.Context(), g, pr.prompt, args[1:], pr.flags, stdio)
			}
			if len(args) > 1 {
				return usageError{fmt.Errorf("sessions resume takes one session id but got %d words; to send a prompt give -p: synaps sessions resume %s -p %q", len(args), args[0], strings.Join(args[1:], " "))}
			}
			return runInteractive(cmd.Context(), cmd, g, stdio)
		},
	}
	pr.add(resume.Flags())
	cmd.AddCommand(list, show, resume)
	return cmd
}

// printSubagent prints a subagent's transcript, indented under the agent
// call that started it.
func printSubagent(stdio Stdio, sa *session.Subagent, indent string) {
	fmt.Fprintf(stdio.Out, "%s  ┆ agent %s (%s): %s · %s, %d input and %d output tokens\n", indent, sa.Type, sa.ID, sa.Description, plural.Count(len(sa.Messages), "message"), sa.Usage.InputTokens, sa.Usage.OutputTokens)
	var b strings.Builder
	sub := Stdio{Out: &b, Err: stdio.Err}
	for _, m := range sa.Messages {
		printMessage(sub, m, nil, "")
	}
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		fmt.Fprintf(stdio.Out, "%s  ┆ %s\n", indent, line)
	}
}

// printMessage prints a message; kids are the subagents by the agent call
// that started them, printed after it (and taken from kids).
func printMessage(stdio Stdio, m llm.Message, kids map[string]*session.Subagent, indent string) {
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockText:
			if b.Inject {
				fmt.Fprintf(stdio.Out, "  [context added by extensions: %d bytes]\n", len(b.Text))
				continue
			}
			who := "user"
			if m.Role == llm.RoleAssistant {
				who = "assistant"
			}
			fmt.Fprintf(stdio.Out, "\n%s: %s\n", who, strings.TrimSpace(b.Text))
		case llm.BlockToolUse:
			fmt.Fprintf(stdio.Out, "● %s %s\n", b.Name, string(b.Input))
			if sa := kids[b.ID]; sa != nil {
				printSubagent(stdio, sa, indent)
				delete(kids, b.ID)
			}
		case llm.BlockToolResult:
			prefix := "⎿"
			if b.IsError {
				prefix = "⎿ error:"
			}
			lines := strings.Split(strings.TrimRight(b.Content, "\n"), "\n")
			fmt.Fprintf(stdio.Out, "  %s %s\n", prefix, lines[0])
			if len(lines) > 1 {
				fmt.Fprintf(stdio.Out, "    … %s\n", plural.Count(len(lines)-1, "more line"))
			}
		}
	}
}
