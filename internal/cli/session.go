package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
)

// appOptions turns the shared flags into app options, with the base
// directory resolved (and created) by baseDir.
func (g *globals) appOptions() (app.Options, error) {
	if g.resume == pickSession {
		return app.Options{}, usageError{errors.New("--resume without an id opens a picker in the terminal UI only; give the id (synaps sessions list)")}
	}
	if g.resume != "" {
		// Checked before anything starts: the id names files.
		if err := session.CheckID(g.resume); err != nil {
			return app.Options{}, usageError{fmt.Errorf("--resume: %w", err)}
		}
	}
	if g.maxTurns < 0 {
		return app.Options{}, usageError{fmt.Errorf("--max-turns %d: give a number of model requests of 1 or more, or 0 for no limit", g.maxTurns)}
	}
	base, err := baseDir()
	if err != nil {
		return app.Options{}, err
	}
	o := app.Options{MaxTurns: g.maxTurns,
		BaseDir: base, Model: g.model, NoExtensions: g.noExtensions, Continue: g.cont, Resume: g.resume,
		TrustProject: g.trustProject, Version: Version, AppendSystemPrompt: g.appendSystem,
	}
	o.ApproveConfirms = g.autoApprove
	if g.effort != "" {
		e, err := llm.ParseEffort(g.effort)
		if err != nil {
			return app.Options{}, usageError{fmt.Errorf("--effort: %w", err)}
		}
		o.Effort = e
	}
	if err := g.limits.apply(&o, base, g); err != nil {
		return app.Options{}, err
	}
	if err := g.permissionOptions(&o); err != nil {
		return app.Options{}, err
	}
	return o, nil
}

// permissionOptions reads --permission-mode, --dangerously-skip-permissions,
// --allowedTools and --disallowedTools into o; a bad value is a usage
// error naming the flag.
func (g *globals) permissionOptions(o *app.Options) error {
	if g.permissionMode != "" {
		m, err := permission.ParseMode(g.permissionMode)
		if err != nil {
			return usageError{fmt.Errorf("--permission-mode: %v", err)}
		}
		o.PermissionMode = m
	}
	if g.skipPermissions {
		if o.PermissionMode != "" && o.PermissionMode != permission.Bypass {
			return usageError{fmt.Errorf("--dangerously-skip-permissions means --permission-mode bypassPermissions, but --permission-mode %s was given too; give one", o.PermissionMode)}
		}
		o.PermissionMode = permission.Bypass
	}
	for _, f := range []struct {
		flag  string
		items []string
		into  *[]permission.Rule
	}{{"--allowedTools", g.allowed, &o.Allowed}, {"--disallowedTools", g.disallowed, &o.Disallowed}} {
		for _, item := range f.items {
			rules, err := permission.ParseRules(item)
			if err != nil {
				return usageError{fmt.Errorf("%s: %v", f.flag, err)}
			}
			*f.into = append(*f.into, permission.Sourced(rules, f.flag)...)
		}
	}
	return nil
}

// lineConfirmer asks on a terminal: the question goes to out and the
// answer is the next input line.
type lineConfirmer struct {
	out  io.Writer
	next func() (line string, ok bool)
	// r, when set, prints the diff an edit or write would make before
	// the question (the input that will run, after the hook chain's
	// rewrites), as the TUI's question shows it.
	r *renderer
}

func (c *lineConfirmer) Confirm(ctx context.Context, tool string, msgs []hook.Confirm) bool {
	return c.Ask(ctx, agent.Question{Tool: tool, Messages: msgs}) != agent.AnswerNo
}

// Ask asks on the terminal; "a" or "always" answers yes and saves the
// question's rule, when one is offered.
func (c *lineConfirmer) Ask(_ context.Context, q agent.Question) agent.Answer {
	for _, m := range q.Messages {
		fmt.Fprintf(c.out, "? %s asks: %s\n", m.Extension, m.Message)
	}
	if q.Diff != nil && c.r != nil {
		fmt.Fprintf(c.out, "  %s would change %s:\n", q.Tool, q.Diff.Path)
		c.r.diffN(q.Diff, tool.MaxDiffLines)
	}
	if q.Always != "" {
		fmt.Fprintf(c.out, "Run %s? [y/N/a = always allow %s] ", q.Tool, q.Always)
	} else {
		fmt.Fprintf(c.out, "Run %s? [y/N] ", q.Tool)
	}
	line, ok := c.next()
	if !ok {
		return agent.AnswerNo
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return agent.AnswerYes
	case "a", "always":
		if q.Always != "" {
			return agent.AnswerAlways
		}
	}
	return agent.AnswerNo
}

// isTerminal reports whether f is a terminal. A character device is not
// enough: </dev/null is one, and -p must read it as an empty stdin.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(file.Fd())
}

func colorOn(w io.Writer) bool {
	return isTerminal(w) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// printFlags are the flags that shape a -p run beyond the shared ones.
type printFlags struct {
	format      string // --output-format: text, json, stream-json
	inputFormat string // --input-format: text, stream-json
	claude      claudeFlags
}

// runPrint is -p: one prompt (or, with --input-format stream-json, one
// per input line), the answer on stdout.
func runPrint(ctx context.Context, g *globals, flag string, args []string, pf printFlags, stdio Stdio) error {
	format := pf.format
	if format != "text" && format != "json" && format != "stream-json" {
		return usageError{fmt.Errorf("--output-format %q: use text, json or stream-json", format)}
	}
	var in *streamInput
	var prompt string
	switch pf.inputFormat {
	case "text", "":
		p, err := printPrompt(flag, args, stdio.In, isTerminal(stdio.In), stdio.Err)
		if err != nil {
			return err
		}
		prompt = p
	case "stream-json":
		if format != "stream-json" {
			return usageError{errors.New("--input-format stream-json needs --output-format stream-json (each message's answer is a stream)")}
		}
		if flag != stdinPrompt || len(args) > 0 {
			return usageError{errors.New("--input-format stream-json reads the prompts from stdin; give no prompt argument")}
		}
		in = &streamInput{dec: json.NewDecoder(stdio.In)}
	default:
		return usageError{fmt.Errorf("--input-format %q: use text or stream-json", pf.inputFormat)}
	}
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	if err := pf.claude.apply(&opts, g, format); err != nil {
		return err
	}
	for _, n := range pf.claude.notes {
		fmt.Fprintln(stdio.Err, "ℹ "+n)
	}
	enc := json.NewEncoder(stdio.Out)
	progress := &renderer{out: stdio.Err, color: colorOn(stdio.Err), fullErrors: !isTerminal(stdio.Err)}
	stream := &claudeStream{now: time.Now, run: newResultRun(time.Now())}
	if format == "stream-json" {
		stream.enc = enc
		stream.partial = pf.claude.partial
	}
	// A hook's "defer" ends the run before the call, resumable from it
	// with -p --resume ID, as in Claude Code.
	opts.DeferCalls = true
	opts.OnEvent = func(ev agent.Event) {
		stream.event(ev)
		if format == "text" && ev.Type != agent.EventText && ev.Type != agent.EventMessage {
			progress.event(ev)
		}
		if format != "text" && ev.Type == agent.EventNotice {
			// Notices (a guard that hangs or is gone) reach stderr in
			// every format, not only in the JSON a script may not read.
			progress.event(ev)
		}
	}
	// The session lives in a host, as every front-end's does; -p is its
	// one client, and hears the events in order through OnEvent.
	h := host.New()
	s, err := h.Open(ctx, opts)
	if err != nil {
		return err
	}
	a := s.App()
	for _, n := range a.Notes {
		fmt.Fprintln(stdio.Err, "ℹ "+n)
	}
	// A headless run has one shot at the prompt: the model's first
	// request sees every MCP server that could start (a failed one is a
	// notice on stderr, from OnEvent).
	a.WaitMCP(ctx)
	id := a.Session.ID
	stream.session, stream.model = id, a.Model
	if format == "stream-json" {
		mode := ""
		if a.Permissions != nil {
			mode = string(a.Permissions.Mode())
		}
		first := systemInit(id, a.Model, a.WorkDir, Version, mode, a.Tools.Names(), a.SlashNames(), mcpServersJSON(a.MCPStatuses()))
		first["plugin_errors"] = pluginErrorsJSON(a.TrustState())
		enc.Encode(first)
	}
	// --timeout bounds the run's wall-clock time: at the deadline the
	// turn stops as Ctrl-C stops it (calls answered, session saved).
	runCtx := ctx
	timeout, err := g.limits.runTimeout(opts.BaseDir)
	if err != nil {
		h.Close(context.WithoutCancel(ctx))
		return err
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var sendErr error
	for {
		if in != nil {
			p, err := in.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				// A line that is no prompt still gets its result line, as
				// every prompt does: a program reading stdout sees the
				// run end, and why.
				sendErr = err
				stream.run = newResultRun(time.Now())
				res := stream.run.result(time.Now(), id, a.Model, "", sendErr, false)
				res["plugin_errors"] = pluginErrorsJSON(a.TrustState())
				enc.Encode(res)
				break
			}
			prompt = p
		}
		stream.run = newResultRun(time.Now())
		before := len(a.Session.View())
		// A prompt that names a Markdown command ("/commit-commands:commit
		// extra") runs it, as in Claude Code; any other text, slashes
		// included ("/tmp/x is broken"), goes to the model as written.
		if cp, ok, err := a.ExpandCommand(runCtx, prompt); err != nil {
			sendErr = err
		} else if ok {
			for _, n := range cp.Notes {
				fmt.Fprintln(stdio.Err, "ℹ "+n)
			}
			sendErr = s.Run(runCtx, host.Input{Command: &cp})
		} else {
			sendErr = s.Run(runCtx, host.Input{Text: prompt})
		}
		switch {
		case sendErr != nil && interrupted(ctx):
			sendErr = errInterrupted
		case sendErr != nil && errors.Is(runCtx.Err(), context.DeadlineExceeded):
			sendErr = &agent.LimitError{Flag: "--timeout", What: fmt.Sprintf("%s of wall-clock time passed", timeout)}
		}
		answer := lastAnswer(a, before)
		var structured any
		if pf.claude.schema != nil && sendErr == nil {
			if structured, err = pf.claude.structuredOutput(answer); err != nil {
				sendErr = errStructuredOutput{err}
			}
		}
		switch format {
		case "text":
			if answer != "" {
				fmt.Fprintln(stdio.Out, strings.TrimRight(answer, "\n"))
			}
		case "json", "stream-json":
			res := stream.run.result(time.Now(), id, a.Model, answer, sendErr, format == "json")
			res["plugin_errors"] = pluginErrorsJSON(a.TrustState())
			if structured != nil {
				res["structured_output"] = structured
			}
			enc.Encode(res)
		}
		if in == nil || sendErr != nil {
			break
		}
	}
	a.OnEnding = func(msg string) { fmt.Fprintln(stdio.Err, "ℹ "+msg) }
	closeErr := h.Close(context.WithoutCancel(ctx))
	if sendErr == errInterrupted {
		// The turn stopped where it was; every tool call that ran has its
		// result in the session (agent.Send keeps it consistent).
		return exitError{code: ExitInterrupted, msg: fmt.Sprintf("interrupted; the session is saved, resume it with: synaps --resume %s", id)}
	}
	if errors.Is(sendErr, agent.ErrTurnLimit) {
		return exitError{code: ExitLimit, msg: fmt.Sprintf("%v; the session is saved, go on with: synaps -p PROMPT --resume %s (and a higher --max-turns)", sendErr, id)}
	}
	var deferred *agent.DeferredError
	if errors.As(sendErr, &deferred) {
		// Not a failure: the run stops where a hook asked it to wait.
		fmt.Fprintf(stdio.Err, "ℹ %v; the session is saved, go on from the deferred call with: synaps -p PROMPT --resume %s\n", sendErr, id)
		return closeErr
	}
	var limit *agent.LimitError
	if errors.As(sendErr, &limit) {
		return exitError{code: ExitLimit, msg: fmt.Sprintf("%v; the session is saved, go on with: synaps -p PROMPT --resume %s (and a higher %s)", sendErr, id, limit.Flag)}
	}
	if sendErr != nil {
		return sendErr
	}
	return closeErr
}

// lastAnswer is the text of the last assistant message of this prompt's
// run, those after the first from messages: a prompt that failed before
// the model answered (a hook blocked it, the model failed) has none, and
// must not print a resumed session's earlier answer as its own. A session
// that shrank meanwhile (compacted) is read whole.
func lastAnswer(a *app.App, from int) string {
	msgs := a.Session.View()
	if from > len(msgs) {
		from = 0
	}
	for i := len(msgs) - 1; i >= from; i-- {
		if msgs[i].Role == "assistant" {
			return msgs[i].Text()
		}
	}
	return ""
}

func toolCallsJSON(calls []*agent.ToolCall) []map[string]any {
	out := make([]map[string]any, 0, len(calls))
	for _, c := range calls {
		out = append(out, toolCallJSON(c))
	}
	return out
}

func toolCallJSON(c *agent.ToolCall) map[string]any {
	m := map[string]any{"id": c.ID, "name": c.Name, "input": json.RawMessage(c.Input), "output": c.Output,
		"is_error": c.IsError, "duration_ms": c.Duration.Milliseconds()}
	if c.BlockedBy != "" {
		m["blocked_by"] = c.BlockedBy
	}
	if c.Refused {
		m["refused"] = true
	}
	if len(c.ModifiedBy) > 0 {
		m["modified_by"] = c.ModifiedBy
	}
	if len(c.ReplacedBy) > 0 {
		m["replaced_by"] = c.ReplacedBy
	}
	if c.Diff != nil {
		m["diff"] = c.Diff
	}
	if c.Report != nil {
		// Coverage: which links judged the call, which could not and
		// why, which did not match; the rule or mode; the verdict.
		m["coverage"] = c.Report
	}
	return m
}

// streamEvent is one stream-json line.
func streamEvent(ev agent.Event) map[string]any {
	m := map[string]any{"type": string(ev.Type)}
	switch ev.Type {
	case agent.EventText, agent.EventThinking, agent.EventNotice:
		m["text"] = ev.Text
	case agent.EventInject:
		m["extensions"] = ev.Text
		m["where"] = ev.Where
	case agent.EventRetry:
		m["delay_ms"] = ev.Delay.Milliseconds()
		if ev.Err != nil {
			m["error"] = ev.Err.Error()
		}
	case agent.EventMessage:
		m["message"] = ev.Message
	case agent.EventToolStart:
		m["tool"] = map[string]any{"id": ev.Tool.ID, "name": ev.Tool.Name, "input": json.RawMessage(ev.Tool.Input)}
	case agent.EventToolEnd:
		m["tool"] = toolCallJSON(ev.Tool)
	case agent.EventTurnEnd:
		m["stop_reason"] = ev.StopReason
		m["usage"] = map[string]int{"input_tokens": ev.Usage.InputTokens, "output_tokens": ev.Usage.OutputTokens}
	case agent.EventSubagentStart:
		m["description"] = ev.Text
	case agent.EventSubagentEnd:
		m["result"] = ev.Text
		m["usage"] = map[string]int{"input_tokens": ev.Usage.InputTokens, "output_tokens": ev.Usage.OutputTokens}
		if ev.Err != nil {
			m["error"] = ev.Err.Error()
		}
	}
	if s := ev.Subagent; s != nil {
		m["agent_id"], m["agent_type"], m["parent_tool_use_id"] = s.ID, s.Type, s.ParentToolUseID
	}
	return m
}
