package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/tool"
)

// session is one open synaps session on the connection: a client of a
// host.Session, which runs one turn at a time. mu guards the fields
// after it.
type session struct {
	srv *Server
	id  sdk.SessionId
	hs  *host.Session
	// app is hs's, for what the host does not wrap (the permission mode,
	// the work dir).
	app *app.App

	mu sync.Mutex
	// tools maps a tool name to its latest running call, so that a
	// confirm (which names the tool) points the editor at the call.
	tools map[string]string
}

// prompt runs one user turn; session/cancel (or the request's end)
// stops it.
func (ss *session) prompt(ctx context.Context, text string) (sdk.PromptResponse, error) {
	// The session's MCP servers (the editor's among them) start in the
	// background; the first prompt waits for them, each bounded by its
	// start timeout, so that the model sees their tools.
	if err := ss.app.WaitMCP(ctx); err != nil && ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	err := ss.hs.Run(ctx, host.Input{Text: text})
	if errors.Is(err, host.ErrBusy) {
		return sdk.PromptResponse{}, sdk.NewInvalidRequest("a prompt is already running in this session: wait for its answer or send session/cancel")
	}
	if errors.Is(err, context.Canceled) && ctx.Err() == nil {
		// session/cancel aborted the turn: the prompt ends "cancelled".
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	reason, err := stopReason(ctx, err)
	return sdk.PromptResponse{StopReason: reason}, err
}

func (ss *session) cancelTurn() { ss.hs.Abort() }

func (ss *session) close(ctx context.Context) {
	if err := ss.hs.Close(ctx); err != nil {
		ss.srv.logf("session %s: %v", ss.id, err)
	}
}

// update sends one session/update; a client that went away is not an
// error the turn can act on, so it is only logged.
func (ss *session) update(u sdk.SessionUpdate) {
	if err := ss.srv.peer().SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: ss.id, Update: u}); err != nil {
		ss.srv.logf("session %s: update not sent: %v", ss.id, err)
	}
}

// event turns an agent event into the updates an editor shows.
func (ss *session) event(ev agent.Event) {
	if ev.Subagent != nil {
		// A subagent's text and calls are not the agent's message: the
		// editor shows the agent tool call, whose output is the child's
		// answer.
		return
	}
	switch ev.Type {
	case agent.EventText:
		ss.update(sdk.UpdateAgentMessageText(ev.Text))
	case agent.EventThinking:
		ss.update(sdk.UpdateAgentThoughtText(ev.Text))
	case agent.EventToolStart:
		ss.mu.Lock()
		ss.tools[ev.Tool.Name] = ev.Tool.ID
		ss.mu.Unlock()
		ss.update(ss.startCall(ev.Tool.ID, ev.Tool.Name, ev.Tool.Input))
	case agent.EventToolEnd:
		ss.mu.Lock()
		if ss.tools[ev.Tool.Name] == ev.Tool.ID {
			delete(ss.tools, ev.Tool.Name)
		}
		ss.mu.Unlock()
		ss.update(endCall(ev.Tool.ID, ev.Tool.Output, ev.Tool.IsError, ev.Tool.Diff))
	case agent.EventNotice:
		ss.srv.logf("session %s: %s", ss.id, ev.Text)
	case agent.EventRetry:
		if ev.Err != nil {
			ss.srv.logf("session %s: retrying in %s: %v", ss.id, ev.Delay, ev.Err)
		}
	}
}

// startCall announces a tool call: its kind (for the editor's icon), a
// title, the file it touches.
func (ss *session) startCall(id, name string, input []byte) sdk.SessionUpdate {
	kind, title, path := describe(name, input, ss.app.WorkDir)
	opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(kind), sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartRawInput(json.RawMessage(orEmpty(input)))}
	if path != "" {
		opts = append(opts, sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: path}}))
	}
	return sdk.StartToolCall(sdk.ToolCallId(id), title, opts...)
}

// endCall reports how a call ended: its output as text, and for an edit
// or a write the change as a diff the editor can show.
func endCall(id, output string, isError bool, diff *tool.Diff) sdk.SessionUpdate {
	status := sdk.ToolCallStatusCompleted
	if isError {
		status = sdk.ToolCallStatusFailed
	}
	content := []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(output))}
	if diff != nil && !diff.TooLarge {
		content = append(content, diffContent(diff, ""))
	}
	return sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateStatus(status), sdk.WithUpdateContent(content), sdk.WithUpdateRawOutput(output))
}

// diffContent is d as ACP's diff content: the whole texts when d has
// them (a question's preview), else the lines d shows; the path made
// absolute against workDir (ACP's paths are absolute) when one is given.
func diffContent(d *tool.Diff, workDir string) sdk.ToolCallContent {
	path := d.Path
	if workDir != "" && path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(workDir, path)
	}
	oldText, newText := d.Before, d.After
	if !d.Whole {
		oldText, newText = diffTexts(d)
	}
	if d.Created {
		return sdk.ToolDiffContent(path, newText)
	}
	return sdk.ToolDiffContent(path, newText, oldText)
}

// diffTexts are the old and new sides of the lines a diff shows: the
// changed region with its context, which is what an editor's diff view
// draws (synaps keeps no copy of the whole file).
func diffTexts(d *tool.Diff) (string, string) {
	var o, n strings.Builder
	for _, l := range d.Lines {
		switch l.Kind {
		case tool.DiffSame:
			o.WriteString(l.Text + "\n")
			n.WriteString(l.Text + "\n")
		case tool.DiffRemoved:
			o.WriteString(l.Text + "\n")
		case tool.DiffAdded:
			n.WriteString(l.Text + "\n")
		case tool.DiffGap:
			o.WriteString("…\n")
			n.WriteString("…\n")
		}
	}
	return o.String(), n.String()
}

// describe gives a tool call's kind, a one-line title and the file it is
// about, if any.
func describe(name string, input []byte, workDir string) (sdk.ToolKind, string, string) {
	var in map[string]any
	_ = json.Unmarshal(input, &in)
	str := func(k string) string { s, _ := in[k].(string); return s }
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(workDir, p)
	}
	switch name {
	case "bash":
		return sdk.ToolKindExecute, firstLine(str("command")), ""
	case "read":
		return sdk.ToolKindRead, "read " + str("path"), abs(str("path"))
	case "write", "edit":
		return sdk.ToolKindEdit, name + " " + str("path"), abs(str("path"))
	case "grep":
		return sdk.ToolKindSearch, "grep " + str("pattern"), ""
	case "find":
		return sdk.ToolKindSearch, "find " + str("pattern"), ""
	case "ls":
		return sdk.ToolKindRead, "ls " + str("path"), abs(str("path"))
	}
	return sdk.ToolKindOther, name, ""
}

func firstLine(s string) string {
	l, _, cut := strings.Cut(s, "\n")
	if cut {
		return l + " …"
	}
	return l
}

func orEmpty(b []byte) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}

// replay sends a loaded session's conversation as updates, in order:
// user text, the answers, each tool call with its result.
func (ss *session) replay(ctx context.Context) {
	for _, m := range ss.app.Session.Messages() {
		for _, b := range m.Content {
			switch {
			case m.Role == llm.RoleUser && b.Type == llm.BlockText:
				ss.update(sdk.UpdateUserMessageText(b.Text))
			case m.Role == llm.RoleAssistant && b.Type == llm.BlockText:
				ss.update(sdk.UpdateAgentMessageText(b.Text))
			case b.Type == llm.BlockThinking:
				ss.update(sdk.UpdateAgentThoughtText(b.Thinking))
			case b.Type == llm.BlockToolUse:
				ss.update(ss.startCall(b.ID, b.Name, b.Input))
			case b.Type == llm.BlockToolResult:
				ss.update(endCall(b.ToolUseID, b.Content, b.IsError, nil))
			}
		}
	}
}

// promptText is the prompt as synaps sends it to the model: text as
// written, a linked resource as a reference the model can read with its
// tools, an embedded one in a block that names it.
func promptText(blocks []sdk.ContentBlock) (string, error) {
	var b strings.Builder
	for i, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			fmt.Fprintf(&b, "@%s", resourcePath(c.ResourceLink.Uri))
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			fmt.Fprintf(&b, "\n<context source=%q>\n%s\n</context>\n", resourcePath(r.Uri), r.Text)
		case c.Image != nil:
			return "", fmt.Errorf("prompt[%d] is an image; synaps does not take images over ACP yet (initialize says promptCapabilities.image false)", i)
		case c.Audio != nil:
			return "", fmt.Errorf("prompt[%d] is audio; synaps does not take audio", i)
		default:
			return "", fmt.Errorf("prompt[%d] is an embedded binary resource; synaps takes text resources", i)
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return "", errors.New("the prompt is empty: send at least one text block")
	}
	return b.String(), nil
}

// resourcePath is a file URI's path, or the URI as it is.
func resourcePath(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return uri
}

// modes are the session's permission modes as ACP session modes.
func (ss *session) modes() *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(ss.app.Permissions.Mode())}
	for _, m := range permission.Modes {
		d := m.Describe()
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m), Name: modeNames[m], Description: &d})
	}
	return st
}

var modeNames = map[permission.Mode]string{
	permission.Default: "Default", permission.AcceptEdits: "Accept edits",
	permission.Plan: "Plan (read-only)", permission.Bypass: "Bypass permissions",
}

// permissioner asks the editor for every question: the hook chain's
// confirms and the permission policy's asks alike, in one request per
// call.
type permissioner struct{ ss *session }

// Confirm implements hook.Confirmer.
func (p permissioner) Confirm(ctx context.Context, toolName string, msgs []hook.Confirm) bool {
	return p.Ask(ctx, agent.Question{Tool: toolName, Messages: msgs}) != agent.AnswerNo
}

// Ask implements agent.Asker: "allow always" is offered when an allow
// rule would answer the question for good, and saves that rule.
func (p permissioner) Ask(ctx context.Context, q agent.Question) agent.Answer {
	ss := p.ss
	toolName, msgs := q.Tool, q.Messages
	ss.mu.Lock()
	id := ss.tools[toolName]
	ss.mu.Unlock()
	var why []string
	for _, m := range msgs {
		why = append(why, fmt.Sprintf("%s asks: %s", m.Extension, m.Message))
	}
	title := "Run " + toolName + "?"
	if len(why) > 0 {
		title = strings.Join(why, "; ")
	}
	options := []sdk.PermissionOption{{OptionId: "allow_once", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce}}
	if q.Always != "" {
		options = append(options, sdk.PermissionOption{OptionId: "allow_always", Name: "Always allow " + q.Always, Kind: sdk.PermissionOptionKindAllowAlways})
	}
	options = append(options, sdk.PermissionOption{OptionId: "reject_once", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce})
	call := sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(id), Title: &title}
	if q.Diff != nil {
		// The change itself, as the TUI's question shows it: the diff of
		// the input that will run (after every rewrite in the hook chain).
		call.Content = []sdk.ToolCallContent{diffContent(q.Diff, ss.app.WorkDir)}
	}
	resp, err := ss.srv.peer().RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: ss.id,
		ToolCall:  call,
		Options:   options,
	})
	if err != nil {
		ss.srv.logf("session %s: permission request failed, so the call does not run: %v", ss.id, err)
		return agent.AnswerNo
	}
	switch {
	case resp.Outcome.Selected == nil:
		return agent.AnswerNo
	case resp.Outcome.Selected.OptionId == "allow_once":
		return agent.AnswerYes
	case resp.Outcome.Selected.OptionId == "allow_always" && q.Always != "":
		return agent.AnswerAlways
	}
	return agent.AnswerNo
}
