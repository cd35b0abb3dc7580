package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/checkpoint"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// Checkpoints (/rewind): every prompt sent starts a point of the session's
// checkpoint record, and the built-in write and edit keep each file as it
// was before their first change in the turn (checkpoint.Store). Rewinding
// restores the files, the conversation (a new session holding the
// messages before the prompt), or both.

// checkpoints is the record of the current session, opened on first use
// and again when the session changes (/clear, /resume, a rewind).
func (a *App) checkpoints() *checkpoint.Store {
	a.cpMu.Lock()
	defer a.cpMu.Unlock()
	if a.cp == nil || a.cpSession != a.Session.ID {
		if a.cp != nil {
			a.cp.Close() // its snapshot's contents are no use to another session
		}
		a.cp, a.cpSession = checkpoint.Open(a.BaseDir, a.Session.ID), a.Session.ID
	}
	return a.cp
}

// closeCheckpoints lets go of the contents kept for bash's snapshot of
// the project that no checkpoint uses (the session ends).
func (a *App) closeCheckpoints() {
	a.cpMu.Lock()
	defer a.cpMu.Unlock()
	if a.cp != nil {
		a.cp.Close()
	}
}

// checkpointPrompt starts the point of a prompt about to be sent.
func (a *App) checkpointPrompt(text string) {
	if a.Session == nil {
		return
	}
	a.checkpoints().Begin(text, len(a.Session.View()))
}

// Checkpoints are the points /rewind offers, oldest first.
func (a *App) Checkpoints() []checkpoint.Point {
	if a.Session == nil {
		return nil
	}
	return a.checkpoints().Points()
}

// Rewind goes back to before point i's prompt: the files its tools and
// later ones changed (code), the conversation, or both. It returns what
// it did, for the user.
func (a *App) Rewind(ctx context.Context, i int, code, conversation bool) (string, error) {
	store := a.checkpoints()
	points := store.Points()
	if i < 0 || i >= len(points) {
		return "", fmt.Errorf("/rewind: no checkpoint %d (there are %d)", i+1, len(points))
	}
	p := points[i]
	var said []string
	if code {
		out, err := store.RestoreCode(i)
		said = append(said, fmt.Sprintf("code: %d file(s) restored, %d removed", len(out.Restored), len(out.Removed)))
		if len(out.Skipped) > 0 {
			said = append(said, fmt.Sprintf("not restorable (larger than %d bytes, or past the %d bytes kept of the project, when recorded): %s", checkpoint.MaxFileBytes, checkpoint.MaxBytes, strings.Join(out.Skipped, ", ")))
		}
		if err != nil {
			return strings.Join(said, "; "), fmt.Errorf("/rewind: restoring files: %w", err)
		}
	}
	if conversation {
		keep := points[:i]
		if !code && i > 0 {
			// The files the later prompts changed stay changed; a later
			// rewind of the code to an earlier point must still restore
			// them: their records join the last point kept.
			keep = append([]checkpoint.Point(nil), keep...)
			last := &keep[i-1]
			last.Files = append([]checkpoint.File(nil), last.Files...)
			for _, q := range points[i:] {
				last.Files = append(last.Files, q.Files...)
			}
		}
		if err := a.forkSession(ctx, p.Messages, keep); err != nil {
			return strings.Join(said, "; "), err
		}
		said = append(said, fmt.Sprintf("conversation: back to before %q (%d message(s) kept, session %s)", promptLine(p.Prompt), p.Messages, a.Session.ID))
	} else if !code {
		return "", nil
	}
	if conversation && !code {
		said = append(said, "code unchanged")
	}
	return strings.Join(said, "; "), nil
}

// forkSession ends the session and goes on in a new one holding its
// first n messages and the checkpoints before (the old session stays,
// resumable).
func (a *App) forkSession(ctx context.Context, n int, keep []checkpoint.Point) error {
	from := a.checkpoints()
	msgs := a.Session.Messages()
	if n > len(msgs) {
		n = len(msgs)
	}
	if err := a.endSession(ctx, "other"); err != nil {
		return err
	}
	s, err := session.Create(a.BaseDir, a.modelToRecord(a.Model), a.WorkDir)
	if err != nil {
		return err
	}
	for _, m := range msgs[:n] {
		if err := s.Append(m); err != nil {
			return fmt.Errorf("/rewind: %w", err)
		}
	}
	a.Session = s
	a.checkpoints().Adopt(from, keep)
	if a.provider != nil {
		a.newAgent()
	}
	return nil
}

// promptLine is a prompt's first line, short.
func promptLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// recordEdits wraps the built-in write and edit so that each call keeps
// its file in the current checkpoint before it runs, and bash, when its
// commands run in the sandbox (sandboxed), so that each command's changes
// to the project are recorded (checkpoint.Store.BeforeCommand); other
// tools pass.
func (a *App) recordEdits(t tool.Tool, workDir string, sandboxed bool) tool.Tool {
	switch t.Spec().RuntimeName {
	case "write", "edit":
		return &recordingTool{Tool: t, a: a, workDir: workDir}
	case "bash":
		if sandboxed {
			return &recordingBash{Tool: t, a: a, workDir: workDir}
		}
	}
	return t
}

// recordingBash is the sandboxed bash tool, its project indexed before
// and after each command. The sandbox lets a command write only the
// project and the temporary directory, so the project's changes are all
// it can make that a rewind would put back. Recording never stops a
// command: an index that fails leaves the command unrecorded.
type recordingBash struct {
	tool.Tool
	a       *App
	workDir string
}

func (r *recordingBash) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	if r.a.Session == nil {
		return r.Tool.Run(ctx, input)
	}
	cp := r.a.checkpoints()
	if err := cp.BeforeCommand(ctx, r.workDir, builtin.WalkProject); err != nil {
		return r.Tool.Run(ctx, input)
	}
	res, err := r.Tool.Run(ctx, input)
	// The command's changes are recorded even when it failed or was
	// interrupted: what it did before is on disk. Not under ctx, which
	// may be why it ended.
	_ = cp.AfterCommand(context.WithoutCancel(ctx), builtin.WalkProject)
	return res, err
}

// recordingTool is write or edit, recording first.
type recordingTool struct {
	tool.Tool
	a       *App
	workDir string
}

func (r *recordingTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(input, &in) == nil && in.Path != "" && r.a.Session != nil {
		p := in.Path
		if p == "~" || strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				p = filepath.Join(home, p[1:])
			}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.workDir, p)
		}
		r.a.checkpoints().Record(filepath.Clean(p))
	}
	return r.Tool.Run(ctx, input)
}

// Preview is the wrapped tool's (the question before an edit shows it).
func (r *recordingTool) Preview(ctx context.Context, input json.RawMessage) *tool.Diff {
	if pv, ok := r.Tool.(tool.Previewer); ok {
		return pv.Preview(ctx, input)
	}
	return nil
}

// slashRewind is /rewind: without arguments it lists the points; with N
// (as listed) and what (both, the default; code; conversation) it goes
// back to before prompt N.
func (a *App) slashRewind(ctx context.Context, args []string) (SlashResult, error) {
	points := a.Checkpoints()
	if len(args) == 0 {
		if len(points) == 0 {
			return SlashResult{Output: "no checkpoints yet: each prompt you send makes one"}, nil
		}
		var b strings.Builder
		b.WriteString("checkpoints (/rewind N [both|code|conversation] goes back to before prompt N):\n")
		for i, p := range points {
			files := plural.Count(len(p.Files), "file")
			if n := p.NotRestorable(); n > 0 {
				files += fmt.Sprintf(" (%d not restorable)", n)
			}
			fmt.Fprintf(&b, "  %d  %s  %q  %s\n", i+1, p.Time.Format("15:04:05"), promptLine(p.Prompt), files)
		}
		return SlashResult{Output: strings.TrimRight(b.String(), "\n")}, nil
	}
	var n int
	if _, err := fmt.Sscanf(args[0], "%d", &n); err != nil || n < 1 || n > len(points) {
		return SlashResult{}, fmt.Errorf("/rewind: %q is not a checkpoint number; /rewind lists them (1 to %d)", args[0], len(points))
	}
	code, conv := true, true
	if len(args) > 1 {
		switch args[1] {
		case "both":
		case "code":
			conv = false
		case "conversation":
			code = false
		default:
			return SlashResult{}, fmt.Errorf("/rewind: %q: say both, code or conversation", args[1])
		}
	}
	out, err := a.Rewind(ctx, n-1, code, conv)
	if err != nil {
		return SlashResult{Output: out}, err
	}
	return SlashResult{Output: "rewound: " + out, Resumed: conv}, nil
}
