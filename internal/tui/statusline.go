package tui

// The status line command, as Claude Code's statusLine: a command of the
// user's is fed a JSON payload about the session on stdin (Claude Code's
// shape: session_id, cwd, model, workspace, version, cost,
// context_window …) and the first line it prints shows under the input.
// It runs when the session opens and after each turn or command, at most
// statusLineLimit long; a failure shows once, until it works again.
//
// The command is synaps's own config key tui.status_command, else the
// statusLine of the user's ~/.claude/settings.json
// ({"type":"command","command":"…"}). A project's files cannot set it:
// they would run a command of a cloned repository's choosing.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// KeyStatusCommand is the config key of the status line command.
const KeyStatusCommand = "tui.status_command"

// statusLineLimit is how long the command may run.
const statusLineLimit = 2 * time.Second

// statusLine is the command's state: what it printed last, and the
// failure already shown.
type statusLine struct {
	text   string
	failed string
}

// statusLineMsg is one run's outcome.
type statusLineMsg struct {
	text string
	err  error
}

// statusCommand is the configured command and where it was set; "" when
// none is.
func (m *model) statusCommand() (cmd, from string) {
	if m.app == nil {
		return "", ""
	}
	if v, ok := m.app.Config.Get(KeyStatusCommand); ok && strings.TrimSpace(v) != "" {
		return v, m.app.Config.Path + ": " + KeyStatusCommand
	}
	home := ""
	for _, e := range m.environ {
		if v, ok := strings.CutPrefix(e, "HOME="); ok {
			home = v
		}
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	path := filepath.Join(home, ".claude", "settings.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return "", ""
	}
	var s struct {
		StatusLine *struct {
			Type    string `json:"type"`
			Command string `json:"command"`
		} `json:"statusLine"`
	}
	if json.Unmarshal(b, &s) != nil || s.StatusLine == nil || s.StatusLine.Type != "command" || strings.TrimSpace(s.StatusLine.Command) == "" {
		return "", ""
	}
	return s.StatusLine.Command, path + ": statusLine"
}

// statusPayload is what the command reads on stdin, in Claude Code's
// shape. Call it only while no worker runs.
func (m *model) statusPayload() []byte {
	a := m.app
	p := map[string]any{
		"hook_event_name": "Status",
		"cwd":             a.WorkDir,
		"model":           map[string]any{"id": a.Model, "display_name": m.state.model},
		"workspace":       map[string]any{"current_dir": a.WorkDir, "project_dir": a.WorkDir},
		"output_style":    map[string]any{"name": "default"},
	}
	if a.Session != nil {
		p["session_id"], p["transcript_path"] = a.Session.ID, a.Session.Path
	}
	if a.Agent != nil {
		u := a.Agent.Usage()
		p["cost"] = map[string]any{"total_cost_usd": u.CostUSD}
		p["context_window"] = map[string]any{"total_input_tokens": u.InputTokens, "total_output_tokens": u.OutputTokens}
	}
	b, _ := json.Marshal(p)
	return b
}

// refreshStatusLine runs the command, if one is set, when no worker runs.
func (m *model) refreshStatusLine() tea.Cmd {
	if m.app == nil || m.busy != "" {
		return nil
	}
	command, from := m.statusCommand()
	if command == "" {
		m.statusLn = nil
		return nil
	}
	if m.statusLn == nil {
		m.statusLn = &statusLine{}
	}
	payload, dir, env, ctx := m.statusPayload(), m.app.WorkDir, m.environ, m.ctx
	return func() tea.Msg {
		text, err := runStatusCommand(ctx, command, dir, env, payload)
		if err != nil {
			err = fmt.Errorf("the status line command (%s) %w", from, err)
		}
		return statusLineMsg{text: text, err: err}
	}
}

// runStatusCommand runs command with sh in dir, payload on stdin, and
// returns the first line it printed.
func runStatusCommand(ctx context.Context, command, dir string, env []string, payload []byte) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, statusLineLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(payload)
	cmd.WaitDelay = 200 * time.Millisecond
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return "", fmt.Errorf("took longer than %s and was stopped", statusLineLimit)
	case err != nil:
		why := strings.TrimSpace(oneLine(errOut.String(), 120))
		if why != "" {
			why = ": " + why
		}
		return "", fmt.Errorf("failed (%v)%s", err, why)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	return first, nil
}

// statusLineDone shows a run's line, or its failure once.
func (m *model) statusLineDone(msg statusLineMsg) {
	s := m.statusLn
	if s == nil {
		return
	}
	if msg.err != nil {
		s.text = ""
		if e := msg.err.Error(); e != s.failed {
			s.failed = e
			m.print(m.st.warn.Render("· " + sanitize(e) + "; fix it, or unset it"))
		}
		return
	}
	s.failed, s.text = "", msg.text
}

// statusLineView is the line under the input; "" when there is none.
func (m *model) statusLineView(w int) string {
	if m.statusLn == nil || m.statusLn.text == "" {
		return ""
	}
	return fit(sanitize(m.statusLn.text), w)
}
