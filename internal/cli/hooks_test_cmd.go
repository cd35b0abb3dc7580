package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/spelling"
)

// `synaps hooks test TOOL 'JSON'`: one call through the chain a session
// in this directory would build — extensions, Claude hooks, permission
// rules and mode, required_guards — with the hooks run for real and the
// tool never run. Exit 0 allow, 1 block, 3 would ask.

func newHooksTestCmd(g *globals, stdio Stdio) *cobra.Command {
	var asJSON bool
	var event, payload string
	cmd := &cobra.Command{
		Use:   "test TOOL ['JSON'] | test --event NAME --payload FILE",
		Short: "Run one tool call through the hook chain, rules and mode, without running the tool",
		Long: `Run one tool call through the hook chain a session in this directory
would build — extensions, Claude Code hooks (settings files and plugins),
permission rules and mode, required_guards — and print what each link
said: its decision, reason, rewrite (a diff of the input) and time, then
the verdict. The extensions and hooks run for real (their side effects
are theirs); the tool never runs and nobody is asked.

TOOL is spelled as synaps or Claude Code spells it (bash or Bash, write
or Write with file_path). --event runs another hook (before_message,
on_session_start, … or Claude's UserPromptSubmit, …) with the event read
from --payload, a JSON file in the extension protocol's form.

Exit codes: 0 allowed, 1 blocked, 3 would ask the user, 2 usage error.`,
		Example: `  synaps hooks test Bash '{"command":"rm -rf build"}'
  synaps hooks test write '{"path":"notes.md","content":"hi"}' --json
  synaps hooks test --event before_message --payload prompt.json`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if event != "" {
				if len(args) > 0 {
					return usageError{errors.New("hooks test --event takes no TOOL: the event is read from --payload")}
				}
				return runEventTest(cmd.Context(), g, stdio, event, payload, asJSON)
			}
			if len(args) == 0 {
				return usageError{errors.New("hooks test needs a TOOL and its input: synaps hooks test Bash '{\"command\":\"ls\"}'")}
			}
			input := json.RawMessage("{}")
			if len(args) == 2 {
				input = json.RawMessage(args[1])
				var obj map[string]json.RawMessage
				if err := json.Unmarshal(input, &obj); err != nil || obj == nil {
					return usageError{fmt.Errorf("hooks test: the input %q is not a JSON object; give the tool's input as the model would, e.g. '{\"command\":\"ls\"}'", args[1])}
				}
			}
			a, err := openJudge(cmd.Context(), g, stdio)
			if err != nil {
				return err
			}
			defer closeJudge(a)
			name, input := toolNamed(a, args[0], input)
			r := a.Judge(cmd.Context(), name, input, nil)
			if err := printCallReport(stdio, r, asJSON); err != nil {
				return err
			}
			if code := verdictExit(r); code != 0 {
				return exitError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&event, "event", "", "test another hook than before_tool_call (synaps or Claude Code name)")
	cmd.Flags().StringVar(&payload, "payload", "", "with --event: a JSON file holding the event (message, data, tool_name, tool_input, …)")
	return cmd
}

// openJudge opens the app as a session in this directory would, without
// needing a model, and waits for its MCP servers, so their tools are
// judged too. Notes go to stderr.
func openJudge(ctx context.Context, g *globals, stdio Stdio) (*app.App, error) {
	opts, err := g.appOptions()
	if err != nil {
		return nil, err
	}
	opts.NoModelOK = true
	a, err := app.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	for _, n := range a.Notes {
		fmt.Fprintln(stdio.Err, "synaps: "+n)
	}
	if err := a.WaitMCP(ctx); err != nil {
		fmt.Fprintln(stdio.Err, "synaps: "+err.Error())
	}
	return a, nil
}

// closeJudge ends the app without a session: no session was started, so
// no on_session_end is sent and no file is left.
func closeJudge(a *app.App) {
	a.Agent = nil
	a.Close(context.Background())
}

// toolNamed is the tool a name stands for — synaps's, or Claude Code's
// (Bash, Write with file_path) turned into synaps's — and its input.
func toolNamed(a *app.App, name string, input json.RawMessage) (string, json.RawMessage) {
	if _, _, ok := a.Tools.Lookup(name); ok {
		return name, input
	}
	if s := claude.SynapsName(name); s != name {
		return s, claude.FromClaudeInput(s, input)
	}
	if l := strings.ToLower(name); l != name {
		if _, _, ok := a.Tools.Lookup(l); ok {
			return l, input
		}
	}
	return name, input
}

func printCallReport(stdio Stdio, r *agent.CallReport, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(stdio.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	writeCallReport(stdio.Out, r)
	return nil
}

// eventResult is what `hooks test --event` prints with --json.
type eventResult struct {
	Event   string            `json:"event"`
	Links   []hook.LinkReport `json:"links"`
	Verdict string            `json:"verdict"`
	By      string            `json:"by,omitempty"`
	Reason  string            `json:"reason,omitempty"`
	Injects []hook.Inject     `json:"injects,omitempty"`
}

// runEventTest runs one non-tool event through the chain.
func runEventTest(ctx context.Context, g *globals, stdio Stdio, name, payload string, asJSON bool) error {
	kind := name
	if e, ok := claude.LookupEvent(name); ok && e.Hook != "" {
		kind = e.Hook // Claude's name of a synaps hook (the one catalog)
	}
	if _, ok := contract.LookupHook(kind); !ok {
		hint := ""
		if near := nearestEvent(name); near != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", near)
		}
		return usageError{fmt.Errorf("--event %q: no such hook%s; use a synaps hook name (before_message, on_session_start, …) or Claude Code's (UserPromptSubmit, SessionStart, …)", name, hint)}
	}
	if payload == "" {
		return usageError{fmt.Errorf("--event %s needs --payload FILE: the event as JSON, e.g. {\"message\":\"hello\"}", name)}
	}
	raw, err := os.ReadFile(payload)
	if err != nil {
		return usageError{fmt.Errorf("--payload: %v", err)}
	}
	var p struct {
		ToolName   string          `json:"tool_name"`
		ToolInput  json.RawMessage `json:"tool_input"`
		ToolOutput *string         `json:"tool_output"`
		Message    *string         `json:"message"`
		Data       json.RawMessage `json:"data"`
		Transcript json.RawMessage `json:"transcript"`
		Source     string          `json:"source"`
		Reason     string          `json:"reason"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return usageError{fmt.Errorf("--payload %s: not a JSON object of an event (%v); write e.g. {\"message\":\"hello\"}", payload, err)}
	}
	a, err := openJudge(ctx, g, stdio)
	if err != nil {
		return err
	}
	defer closeJudge(a)
	if kind == contract.HookBeforeToolCall {
		// A tool call from a payload: the same path as TOOL 'JSON'.
		if p.ToolName == "" {
			return usageError{fmt.Errorf("--payload %s: a before_tool_call event needs tool_name (and tool_input)", payload)}
		}
		name, input := toolNamed(a, p.ToolName, p.ToolInput)
		r := a.Judge(ctx, name, input, nil)
		if err := printCallReport(stdio, r, asJSON); err != nil {
			return err
		}
		if code := verdictExit(r); code != 0 {
			return exitError{code: code}
		}
		return nil
	}
	res := eventResult{Event: kind, Verdict: agent.VerdictAllow}
	if a.Host != nil {
		var rep hook.Report
		ev := hook.Event{Kind: kind, ToolName: p.ToolName, ToolRuntimeName: p.ToolName, ToolInput: p.ToolInput, ToolOutput: p.ToolOutput,
			Message: p.Message, Data: p.Data, Transcript: p.Transcript, StartSource: p.Source, EndReason: p.Reason, SessionID: a.Session.ID}
		d := a.Host.RunHook(hook.WithReport(ctx, &rep), ev)
		res.Links, res.Injects = rep.Links, d.Injects
		switch {
		case d.Blocked:
			res.Verdict, res.By, res.Reason = agent.VerdictBlock, lastSaying(rep.Links, d.BlockedBy, "block"), hook.BlockReason(d.Reason)
		case d.Stopped:
			res.Verdict, res.By, res.Reason = agent.VerdictBlock, lastSaying(rep.Links, d.StoppedBy, "stop"), d.StopReason
		case len(d.Confirms) > 0:
			res.Verdict, res.By, res.Reason = agent.VerdictAsk, lastSaying(rep.Links, d.Confirms[0].Extension, "confirm"), d.Confirms[0].Message
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdio.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(stdio.Out, kind)
		for i, l := range res.Links {
			fmt.Fprintf(stdio.Out, "  %d. %s  %s\n", i+1, l.ID, linkSays(l))
		}
		for _, in := range res.Injects {
			fmt.Fprintf(stdio.Out, "  inject from %s: %s\n", in.Extension, in.Content)
		}
		switch res.Verdict {
		case agent.VerdictBlock:
			fmt.Fprintf(stdio.Out, "verdict: blocked by %s: %s", res.By, res.Reason)
		case agent.VerdictAsk:
			fmt.Fprintf(stdio.Out, "verdict: would ask (%s): %s", res.By, res.Reason)
		default:
			fmt.Fprint(stdio.Out, "verdict: allowed")
		}
		fmt.Fprintln(stdio.Out)
	}
	switch res.Verdict {
	case agent.VerdictBlock:
		return exitError{code: 1}
	case agent.VerdictAsk:
		return exitError{code: 3}
	}
	return nil
}

// lastSaying is the report id of the last link that answered action (or
// could not judge), else owner as the chain named it.
func lastSaying(links []hook.LinkReport, owner, action string) string {
	for i := len(links) - 1; i >= 0; i-- {
		if links[i].Action == action || links[i].State == hook.StateFailed {
			return links[i].ID
		}
	}
	return owner
}

// nearestEvent is the synaps hook or Claude Code event name is most likely
// a misspelling of (at most two edits, ignoring case), or "".
func nearestEvent(name string) string {
	return spelling.Nearest(name, slices.Concat(contract.HookNames(), claude.Events), 2)
}
