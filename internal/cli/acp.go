package cli

import (
	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/acp"
)

// newACPCmd is `synaps acp`: synaps as an Agent Client Protocol agent on
// stdio, for editors. stdout carries the protocol only; what the user
// should know goes to stderr, which editors keep as the agent's log.
func newACPCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "acp",
		Short: "Serve the Agent Client Protocol on stdio (for editors: Zed, JetBrains, Neovim)",
		Long: `synaps acp speaks the Agent Client Protocol (version 1) on stdin/stdout,
newline-delimited JSON-RPC, as editors expect of an agent they start.
Each ACP session is a synaps session in the directory the editor names:
its extensions, hooks and project plugins (when trusted) work as in the
terminal, confirms arrive as permission requests, and session/load takes
any synaps session id. See docs/editors.md.`,
		Example: `  # Zed, in settings.json:
  "agent_servers": { "synaps": { "command": "synaps", "args": ["acp"] } }`,
		Args: noArgsButID,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := g.appOptions()
			if err != nil {
				return err
			}
			ignoreBrokenPipe()
			srv := &acp.Server{Options: opts, Version: Version, Log: stdio.Err}
			return srv.Serve(cmd.Context(), stdio.In, stdio.Out)
		},
	}
}
