package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/llm"
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
			d, err := session.Read(filepath.Join(session.Dir(base), args[0]+".jsonl"))
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "session %s · %s · %s\n", d.Header.ID, d.Header.Model, d.Header.Cwd)
			if d.Compaction != nil {
				fmt.Fprintf(stdio.Out, "\n[continues %s; summary]\n%s\n", d.Compaction.From, d.Compaction.Summary)
			}
			for _, m := range d.Messages {
				printMessage(stdio, m)
			}
			if d.Skipped > 0 {
				fmt.Fprintf(stdio.Out, "\n(%d damaged line(s) skipped)\n", d.Skipped)
			}
			for _, w := range d.Warnings() {
				fmt.Fprintln(stdio.Err, "warning: "+w)
			}
			return nil
		},
	}
	resume := &cobra.Command{
		Use:   "resume ID",
		Short: "Continue a session in the interactive UI (or with --print)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			g.resume = args[0]
			return runInteractive(cmd.Context(), cmd, g, stdio)
		},
	}
	cmd.AddCommand(list, show, resume)
	return cmd
}

func printMessage(stdio Stdio, m llm.Message) {
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
		case llm.BlockToolResult:
			prefix := "⎿"
			if b.IsError {
				prefix = "⎿ error:"
			}
			lines := strings.Split(strings.TrimRight(b.Content, "\n"), "\n")
			fmt.Fprintf(stdio.Out, "  %s %s\n", prefix, lines[0])
			if len(lines) > 1 {
				fmt.Fprintf(stdio.Out, "    … %d more lines\n", len(lines)-1)
			}
		}
	}
}
