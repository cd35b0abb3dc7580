package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/plural"
)

func newMCPCmd(g *globals, stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Use MCP servers (those of Claude Code and Cursor too), and serve synaps's tools over MCP",
		Long: `synaps runs the MCP servers configured for it, for Claude Code and for
Cursor, with no edits; their tools are named mcp__<server>__<tool> and pass
the same hooks as every other tool. See docs/mcp.md.

Files, in merge order (a later one wins for a server name): plugins'
.mcp.json, ~/.cursor/mcp.json, ~/.claude.json (mcpServers, then this
project's entry), $SYNAPS_BASE_DIR/mcp.json; in a trusted project also
.cursor/mcp.json, .mcp.json and .synaps/mcp.json.`,
	}
	cmd.AddCommand(newMCPListCmd(g, stdio), newMCPGetCmd(g, stdio), newMCPAddCmd(stdio), newMCPAddJSONCmd(stdio), newMCPRemoveCmd(stdio), newMCPServeCmd(g, stdio))
	return cmd
}

func mcpWhere() (base, work string, err error) {
	if base, err = baseDir(); err != nil {
		return "", "", err
	}
	work, err = os.Getwd()
	return base, work, err
}

func newMCPListCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "Connect to every configured MCP server and show its state, tools and file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			base, work, err := mcpWhere()
			if err != nil {
				return err
			}
			rep, err := app.CheckMCP(cmd.Context(), base, work, os.Getenv, g.trustProject, "")
			if err != nil {
				return err
			}
			printReportProblems(stdio.Out, rep)
			if len(rep.Servers) == 0 {
				fmt.Fprintln(stdio.Out, "no MCP servers configured; add one with: synaps mcp add NAME -- COMMAND [ARGS...]")
				return nil
			}
			failed := 0
			for _, st := range rep.Servers {
				printStatus(stdio.Out, st, false)
				if st.State == mcp.StateFailed {
					failed++
				}
			}
			if failed > 0 {
				// As extensions reload: a script or CI job notices.
				return exitError{code: ExitError, msg: fmt.Sprintf("%s of %d failed to start", plural.Count(failed, "MCP server"), len(rep.Servers))}
			}
			return nil
		},
	}
}

func printReportProblems(w io.Writer, rep *app.MCPReport) {
	for _, err := range rep.Errors {
		fmt.Fprintf(w, "! %v\n", err)
	}
	if len(rep.Untrusted) > 0 {
		fmt.Fprintf(w, "! not read until the project is trusted (synaps trust, or --trust-project): %s\n", strings.Join(rep.Untrusted, ", "))
	}
}

// printStatus shows one server: a headline, its file, and what is wrong.
func printStatus(w io.Writer, st mcp.Status, tools bool) {
	state := string(st.State)
	if st.State == mcp.StateReady {
		state = fmt.Sprintf("ready (%s)", plural.Count(len(st.Tools), "tool"))
	}
	fmt.Fprintf(w, "%s: %s · %s %s\n", st.Name, state, st.Transport, st.Target)
	loc := st.Source.File
	if st.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, st.Line)
	}
	fmt.Fprintf(w, "  from %s: %s\n", st.Source.Kind, loc)
	for _, o := range st.Overridden {
		fmt.Fprintf(w, "  (overrides %s: %s)\n", o.Kind, o.File)
	}
	if st.Err != "" {
		fmt.Fprintf(w, "  error: %s\n", st.Err)
	}
	for _, l := range st.Stderr {
		fmt.Fprintf(w, "  stderr: %s\n", l)
	}
	if tools {
		if len(st.EnvNames) > 0 {
			fmt.Fprintf(w, "  env: %s\n", strings.Join(st.EnvNames, ", "))
		}
		if len(st.HeaderNames) > 0 {
			fmt.Fprintf(w, "  headers: %s\n", strings.Join(st.HeaderNames, ", "))
		}
		for _, t := range st.Tools {
			fmt.Fprintf(w, "  tool %s\n", t)
		}
	}
}

func newMCPGetCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "get NAME",
		Short: "Show one MCP server: its file, state and tools",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, work, err := mcpWhere()
			if err != nil {
				return err
			}
			rep, err := app.CheckMCP(cmd.Context(), base, work, os.Getenv, g.trustProject, args[0])
			if err != nil {
				printReportProblems(stdio.Err, rep)
				return err
			}
			for _, st := range rep.Servers {
				printStatus(stdio.Out, st, true)
			}
			return nil
		},
	}
}

func newMCPAddCmd(stdio Stdio) *cobra.Command {
	var scope, transport string
	var envs, headers []string
	cmd := &cobra.Command{
		Use:   "add NAME COMMAND_OR_URL [ARGS...]",
		Short: "Add an MCP server to synaps's own config (like claude mcp add)",
		Long: `Add an MCP server. A local server is started by synaps over stdio; put
its command after -- so its own flags are not read as synaps's:

  synaps mcp add fs -- npx -y @modelcontextprotocol/server-filesystem .
  synaps mcp add -e API_KEY='${API_KEY}' search -- search-server
  synaps mcp add -t http -H 'Authorization: Bearer ${TOKEN}' remote https://example.com/mcp

--scope user (default) writes $SYNAPS_BASE_DIR/mcp.json; --scope project
writes .synaps/mcp.json in this directory.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, target, rest := args[0], args[1], args[2:]
			entry := map[string]any{}
			switch transport {
			case "stdio", "":
				if transport == "" && (strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")) {
					return usageError{fmt.Errorf("%s looks like a url: add -t http (or -t sse) for a remote server", target)}
				}
				entry["command"] = target
				if len(rest) > 0 {
					entry["args"] = rest
				}
			case "http", "sse":
				if len(rest) > 0 {
					return usageError{fmt.Errorf("a %s server takes a url and no arguments; got %q", transport, rest)}
				}
				// A URL without its scheme was saved and failed at every
				// start ("unsupported protocol scheme"); ${VAR} may
				// stand for all of it.
				if !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "$") {
					return usageError{fmt.Errorf("%q is not an http:// or https:// URL; -t %s needs the server's URL, e.g. https://example.com/mcp", target, transport)}
				}
				entry["type"], entry["url"] = transport, target
			default:
				return usageError{fmt.Errorf("--transport %q: use stdio, http or sse", transport)}
			}
			if len(envs) > 0 {
				env := map[string]string{}
				for _, e := range envs {
					k, v, ok := strings.Cut(e, "=")
					if !ok || k == "" {
						return usageError{fmt.Errorf("--env %q: write KEY=VALUE", e)}
					}
					env[k] = v
				}
				entry["env"] = env
			}
			if len(headers) > 0 {
				h := map[string]string{}
				for _, e := range headers {
					k, v, ok := strings.Cut(e, ":")
					if !ok || strings.TrimSpace(k) == "" {
						return usageError{fmt.Errorf("--header %q: write 'Name: value'", e)}
					}
					h[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
				entry["headers"] = h
			}
			raw, _ := json.Marshal(entry)
			return addServer(stdio, scope, name, raw)
		},
	}
	cmd.Flags().StringVarP(&scope, "scope", "s", "user", "where to write it: user or project")
	cmd.Flags().StringVarP(&transport, "transport", "t", "", "stdio (default), http (streamable HTTP) or sse")
	cmd.Flags().StringArrayVarP(&envs, "env", "e", nil, "`KEY=VALUE` for the server's environment (repeatable; ${VAR} expands at start)")
	cmd.Flags().StringArrayVarP(&headers, "header", "H", nil, "`'Name: value'` HTTP header (repeatable)")
	return cmd
}

func addServer(stdio Stdio, scope, name string, raw json.RawMessage) error {
	base, work, err := mcpWhere()
	if err != nil {
		return err
	}
	file, err := app.MCPScopeFile(base, work, scope)
	if err != nil {
		return usageError{err}
	}
	if err := mcp.AddServer(file, name, raw); err != nil {
		return err
	}
	// Tool names spell the server as mcp.ToolName does (my.srv: my_srv).
	prefix := "mcp__" + name + "__"
	if p, ok := strings.CutSuffix(mcp.ToolName(name, "t"), "__t"); ok {
		prefix = p + "__"
	}
	fmt.Fprintf(stdio.Out, "added MCP server %s to %s; its tools are %s<tool> in new sessions (check it with: synaps mcp get %s)\n", name, file, prefix, name)
	return nil
}

func newMCPAddJSONCmd(stdio Stdio) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "add-json NAME JSON",
		Short: "Add an MCP server from its JSON entry, as Claude Code and Cursor write it",
		Example: `  synaps mcp add-json weather '{"command":"weather-mcp","env":{"KEY":"${WEATHER_KEY}"}}'
  synaps mcp add-json remote '{"type":"http","url":"https://example.com/mcp"}'`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !json.Valid([]byte(args[1])) {
				return usageError{fmt.Errorf("the entry is not valid JSON: %s", args[1])}
			}
			return addServer(stdio, scope, args[0], json.RawMessage(args[1]))
		},
	}
	cmd.Flags().StringVarP(&scope, "scope", "s", "user", "where to write it: user or project")
	return cmd
}

func newMCPRemoveCmd(stdio Stdio) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an MCP server from synaps's own config",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, work, err := mcpWhere()
			if err != nil {
				return err
			}
			scopes := []string{"user", "project"}
			if cmd.Flags().Changed("scope") {
				scopes = []string{scope}
			}
			for _, sc := range scopes {
				file, err := app.MCPScopeFile(base, work, sc)
				if err != nil {
					return usageError{err}
				}
				ok, err := mcp.RemoveServer(file, args[0])
				if err != nil {
					return err
				}
				if ok {
					fmt.Fprintf(stdio.Out, "removed MCP server %s from %s\n", args[0], file)
					return nil
				}
			}
			// Perhaps another tool's file has it: say which to edit.
			cfg := mcp.Load(app.MCPSources(base, work, os.Getenv, true))
			for _, s := range cfg.Servers {
				if s.Name == args[0] {
					return fmt.Errorf("MCP server %s is configured in %s (%s), not in synaps's own files; edit or remove it there", args[0], s.Source.File, s.Source.Kind)
				}
			}
			return fmt.Errorf("no MCP server named %s in %s", args[0], strings.Join(scopes, " or ")+" scope")
		},
	}
	cmd.Flags().StringVarP(&scope, "scope", "s", "user", "which file: user or project (default: whichever has it)")
	return cmd
}

func newMCPServeCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve synaps's tools (built-ins and extensions') to an MCP client over stdio, guards applied",
		Long: `Serve synaps's tools — the built-ins and every loaded extension's — to an
MCP client (Claude Code, Cursor, any other) over stdio. Every call passes
synaps's hook chain, so a synaps guard protects that client's calls too.

  claude mcp add synaps -- synaps mcp serve

Logs and notices go to stderr; stdout is the protocol.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The client asks its user before each call; a mode or rule
			// given here would be ignored, and an ignored deny rule is a
			// trap. Say so instead.
			for _, f := range []string{"permission-mode", "allowedTools", "allowed-tools", "disallowedTools", "disallowed-tools", "dangerously-skip-permissions"} {
				if cmd.Flags().Changed(f) {
					return usageError{fmt.Errorf("mcp serve takes no --%s: the MCP client asks its user before each call by its own rules (docs/mcp.md); synaps's guards still judge every call — block a tool with a guard extension or a Claude PreToolUse hook", f)}
				}
			}
			opts, err := g.appOptions()
			if err != nil {
				return err
			}
			opts.NoMCP, opts.NoModelOK = true, true
			opts.OnEvent = func(ev agent.Event) {
				if ev.Type == agent.EventNotice {
					fmt.Fprintln(stdio.Err, "synaps: "+ev.Text)
				}
			}
			ctx := cmd.Context()
			a, err := app.Open(ctx, opts)
			if err != nil {
				return err
			}
			for _, n := range a.Notes {
				fmt.Fprintln(stdio.Err, "synaps: "+n)
			}
			serveErr := a.ServeMCP(ctx, io.NopCloser(stdio.In), nopWriteCloser{stdio.Out})
			closeErr := a.Close(context.WithoutCancel(ctx))
			if serveErr != nil && ctx.Err() == nil && !errors.Is(serveErr, io.EOF) {
				return serveErr
			}
			return closeErr
		},
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
