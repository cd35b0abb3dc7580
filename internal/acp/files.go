package acp

import (
	"context"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// editorFiles reads and writes text files through the editor
// (fs/read_text_file, fs/write_text_file), when it offers both: the
// model then reads unsaved changes, and its edits land in the editor's
// buffers, where the user sees and undoes them.
type editorFiles struct{ ss *session }

func (f editorFiles) ReadText(ctx context.Context, path string) (string, error) {
	resp, err := f.ss.srv.peer().ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: f.ss.id, Path: path})
	return resp.Content, err
}

// ReadLines asks for limit lines from line: what read shows, never the
// whole of a large file (a response is one line of the connection, and
// the SDK ends it on a line over 10 MB).
func (f editorFiles) ReadLines(ctx context.Context, path string, line, limit int) (string, error) {
	resp, err := f.ss.srv.peer().ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: f.ss.id, Path: path, Line: &line, Limit: &limit})
	return resp.Content, err
}

func (f editorFiles) WriteText(ctx context.Context, path, content string) error {
	_, err := f.ss.srv.peer().WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: f.ss.id, Path: path, Content: content})
	return err
}

// editorTerminal runs bash's commands in the editor's terminal
// (terminal/create, wait_for_exit, output, release), when it offers one:
// the user watches the command run, and the tool call shows the terminal.
type editorTerminal struct{ ss *session }

func (t editorTerminal) Run(ctx context.Context, argv []string, dir string, limit int, timeout time.Duration) (string, int, bool, error) {
	ss := t.ss
	created, err := ss.srv.peer().CreateTerminal(ctx, sdk.CreateTerminalRequest{
		SessionId: ss.id, Command: argv[0], Args: argv[1:], Cwd: &dir, OutputByteLimit: &limit,
	})
	if err != nil {
		return "", 0, false, err
	}
	id := created.TerminalId
	// Released however the command ends; an editor keeps the output it
	// showed.
	defer ss.srv.peer().ReleaseTerminal(context.WithoutCancel(ctx), sdk.ReleaseTerminalRequest{SessionId: ss.id, TerminalId: id})
	ss.mu.Lock()
	call := ss.tools["bash"]
	ss.mu.Unlock()
	if call != "" {
		ss.update(sdk.UpdateToolCall(sdk.ToolCallId(call), sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(id)})))
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	exit, werr := ss.srv.peer().WaitForTerminalExit(wctx, sdk.WaitForTerminalExitRequest{SessionId: ss.id, TerminalId: id})
	timedOut := werr != nil && wctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	if werr != nil {
		// Timed out or cancelled: the command is killed, what it printed kept.
		ss.srv.peer().KillTerminal(context.WithoutCancel(ctx), sdk.KillTerminalRequest{SessionId: ss.id, TerminalId: id})
		if ctx.Err() != nil {
			return "", 0, false, ctx.Err()
		}
		if !timedOut {
			return "", 0, false, werr
		}
	}
	out, err := ss.srv.peer().TerminalOutput(context.WithoutCancel(ctx), sdk.TerminalOutputRequest{SessionId: ss.id, TerminalId: id})
	if err != nil {
		return "", 0, timedOut, err
	}
	code := 0
	switch {
	case exit.ExitCode != nil:
		code = *exit.ExitCode
	case exit.Signal != nil:
		code = -1
	}
	return out.Output, code, timedOut, nil
}
