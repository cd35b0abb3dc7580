package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// editor is the client side: it records every update and answers
// permission requests with answer.
type editor struct {
	mu      sync.Mutex
	updates []sdk.SessionUpdate
	asked   []sdk.RequestPermissionRequest
	answer  string // option id; "" cancels
	started chan string
	// buffers are the editor's open files (fs/read_text_file and
	// fs/write_text_file go here when it offers them).
	buffers map[string]string
	// reads are the fs/read_text_file requests it was sent.
	reads []sdk.ReadTextFileRequest
	// terms are its terminals; termArgv what each ran.
	terms    map[string]*term
	termArgv []string
}

func (e *editor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	e.updates = append(e.updates, n.Update)
	e.mu.Unlock()
	if n.Update.ToolCall != nil && e.started != nil {
		select {
		case e.started <- string(n.Update.ToolCall.ToolCallId):
		default:
		}
	}
	return nil
}

func (e *editor) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, p)
	if e.answer == "" {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(e.answer))}, nil
}

func (e *editor) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads = append(e.reads, p)
	text, ok := e.buffers[p.Path]
	if !ok {
		b, err := os.ReadFile(p.Path)
		if err != nil {
			return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(err.Error())
		}
		text = string(b)
	}
	return sdk.ReadTextFileResponse{Content: lines(text, p.Line, p.Limit)}, nil
}

// lines is what an editor answers fs/read_text_file's line and limit
// with: limit lines from line (1-based), each with its newline.
func lines(text string, line, limit *int) string {
	if line == nil && limit == nil {
		return text
	}
	all := strings.SplitAfter(text, "\n")
	from := 0
	if line != nil {
		from = min(max(*line-1, 0), len(all))
	}
	to := len(all)
	if limit != nil {
		to = min(from+*limit, to)
	}
	return strings.Join(all[from:to], "")
}
func (e *editor) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.buffers == nil {
		e.buffers = map[string]string{}
	}
	e.buffers[p.Path] = p.Content // an editor keeps it in its buffer
	return sdk.WriteTextFileResponse{}, nil
}

// The editor's terminal: a real process per terminal, as an editor runs
// one, its output kept.
type term struct {
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (e *editor) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	cmd := exec.Command(p.Command, p.Args...)
	if p.Cwd != nil {
		cmd.Dir = *p.Cwd
	}
	t := &term{cmd: cmd, out: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = t.out, t.out
	if err := cmd.Start(); err != nil {
		return sdk.CreateTerminalResponse{}, sdk.NewInternalError(err.Error())
	}
	go func() { cmd.Wait(); close(t.done) }()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.terms == nil {
		e.terms = map[string]*term{}
	}
	id := fmt.Sprintf("term-%d", len(e.terms)+1)
	e.terms[id] = t
	e.termArgv = append(e.termArgv, strings.Join(append([]string{p.Command}, p.Args...), " "))
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}
func (e *editor) term(id string) *term {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.terms[id]
}
func (e *editor) KillTerminal(_ context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	e.term(p.TerminalId).cmd.Process.Kill()
	return sdk.KillTerminalResponse{}, nil
}
func (e *editor) TerminalOutput(_ context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{Output: e.term(p.TerminalId).out.String()}, nil
}
func (e *editor) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	t := e.term(p.TerminalId)
	t.cmd.Process.Kill()
	<-t.done
	return sdk.ReleaseTerminalResponse{}, nil
}
func (e *editor) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t := e.term(p.TerminalId)
	select {
	case <-t.done:
		code := t.cmd.ProcessState.ExitCode()
		return sdk.WaitForTerminalExitResponse{ExitCode: &code}, nil
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
}

// text is what the editor shows of the agent's messages.
func (e *editor) text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b strings.Builder
	for _, u := range e.updates {
		if u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil {
			b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// calls summarises the tool-call updates: "start <kind> <title>" and
// "end <status> <first content text>".
func (e *editor) calls() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, u := range e.updates {
		switch {
		case u.ToolCall != nil:
			out = append(out, "start "+string(u.ToolCall.Kind)+" "+u.ToolCall.Title)
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil:
			s := "end " + string(*u.ToolCallUpdate.Status)
			if c := u.ToolCallUpdate.Content; len(c) > 0 && c[0].Content != nil && c[0].Content.Content.Text != nil {
				s += " " + strings.TrimSpace(c[0].Content.Content.Text.Text)
			}
			out = append(out, s)
		}
	}
	return out
}

// rig is a synaps acp server and an editor connected to it over pipes.
type rig struct {
	ed   *editor
	conn *sdk.ClientSideConnection
	work string
	done chan struct{}
	stop func()
}

func start(t *testing.T, base, model string, ed *editor) *rig {
	t.Helper()
	// The user's own Claude configuration (~/.claude) is read by
	// default: never the machine's.
	t.Setenv("HOME", t.TempDir())
	work := filepath.Join(base, "work")
	os.MkdirAll(work, 0o755)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	srv := &Server{Options: app.Options{BaseDir: base, Model: model}, Version: "test", Log: testLog{t}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ctx, sr, sw)
	}()
	r := &rig{ed: ed, conn: sdk.NewClientSideConnection(ed, cw, cr), work: work, done: done}
	r.stop = func() {
		cw.Close()
		cancel()
		<-done
		sw.Close()
	}
	t.Cleanup(r.stop)
	if _, err := r.conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	return r
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func script(t *testing.T, base, name string, turns ...string) string {
	t.Helper()
	p := filepath.Join(base, name)
	if err := os.WriteFile(p, []byte(strings.Join(turns, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return "script:" + p
}

func guard(t *testing.T, base string) {
	exttest.Plugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call", "tool": "bash"}},
	}, exttest.Spec{Rules: []exttest.Rule{
		{Hook: "before_tool_call", InputContains: "rm -rf", Result: json.RawMessage(`{"action":"block","reason":"no rm -rf"}`)},
		{Hook: "before_tool_call", InputContains: "git push", Result: json.RawMessage(`{"action":"confirm","message":"push to the remote?"}`)},
	}})
}

func TestPromptStreamsToolCallsAndConfirms(t *testing.T) {
	base := t.TempDir()
	guard(t, base)
	model := script(t, base, "turns.jsonl",
		`{"text":"Let me check.","tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}`,
		`{"text":"Cleaning.","tool_calls":[{"name":"bash","input":{"command":"rm -rf build"}}]}`,
		`{"text":"Pushing.","tool_calls":[{"name":"bash","input":{"command":"git push --dry-run 2>/dev/null; echo pushed"}}]}`,
		`{"text":"All done."}`,
	)
	ed := &editor{answer: "allow_once"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("tidy up")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q", resp.StopReason)
	}
	if got := ed.text(); got != "Let me check.Cleaning.Pushing.All done." {
		t.Errorf("agent text %q", got)
	}
	want := []string{
		"start execute echo hi", "end completed hi",
		"start execute rm -rf build", "end failed Tool call blocked by extension guard: no rm -rf",
		"start execute git push --dry-run 2>/dev/null; echo pushed", "end completed pushed",
	}
	if got := ed.calls(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// echo hi is read-only: it runs without a question; the push is one
	// request with the guard's confirm and the mode's question; the
	// blocked rm is never asked about.
	if len(ed.asked) != 1 ||
		*ed.asked[0].ToolCall.Title != "guard asks: push to the remote?; permissions asks: default mode asks before bash" || ed.asked[0].ToolCall.ToolCallId == "" {
		for _, a := range ed.asked {
			t.Logf("asked: %s", *a.ToolCall.Title)
		}
		t.Errorf("permission requests %+v", ed.asked)
	}
}

func TestPermissionRejected(t *testing.T) {
	base := t.TempDir()
	guard(t, base)
	model := script(t, base, "turns.jsonl",
		`{"text":"Pushing.","tool_calls":[{"name":"bash","input":{"command":"git push; touch pushed"}}]}`,
		`{"text":"Not pushed."}`,
	)
	for _, answer := range []string{"reject_once", ""} {
		ed := &editor{answer: answer}
		r := start(t, base, model, ed)
		s, err := r.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("push")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(r.work, "pushed")); err == nil {
			t.Errorf("answer %q: the command ran", answer)
		}
		if got := ed.calls(); len(got) != 2 || !strings.HasPrefix(got[1], "end failed") {
			t.Errorf("answer %q: calls %q", answer, got)
		}
		r.stop()
	}
}

func TestCancelAndLoad(t *testing.T) {
	base := t.TempDir()
	model := script(t, base, "turns.jsonl",
		`{"text":"Waiting.","tool_calls":[{"name":"bash","input":{"command":"sleep 30"}}]}`,
	)
	// A loaded session talks to a model of its own (a script starts at
	// its first turn in every process).
	model2 := script(t, base, "again.jsonl", `{"text":"Back again.","expect":{"last_user_contains":"are you there"}}`)
	// The editor allows the bash call the default mode asks about.
	ed := &editor{started: make(chan string, 1), answer: "allow_once"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-ed.started
		r.conn.Cancel(ctx, sdk.CancelNotification{SessionId: s.SessionId})
	}()
	resp, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("wait for it")}})
	if err != nil || resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("cancelled prompt: %+v, %v", resp, err)
	}
	r.stop()

	// A new connection loads the session: its conversation is replayed,
	// and it goes on from there.
	ed2 := &editor{}
	r2 := start(t, base, model2, ed2)
	if _, err := r2.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: s.SessionId, Cwd: r2.work, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, u := range ed2.updates {
		if u.UserMessageChunk != nil {
			users = append(users, u.UserMessageChunk.Content.Text.Text)
		}
	}
	if len(users) != 1 || users[0] != "wait for it" || ed2.text() != "Waiting." || len(ed2.calls()) != 2 {
		t.Errorf("replay: users %q, text %q, calls %q", users, ed2.text(), ed2.calls())
	}
	resp, err = r2.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("are you there?")}})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn || !strings.HasSuffix(ed2.text(), "Back again.") {
		t.Errorf("prompt after load: %+v %v %q", resp, err, ed2.text())
	}
}

func TestBadRequests(t *testing.T) {
	base := t.TempDir()
	model := script(t, base, "turns.jsonl", `{"text":"hi"}`)
	r := start(t, base, model, &editor{})
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"relative cwd", func() error {
			_, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "work", McpServers: []sdk.McpServer{}})
			return err
		}, `must be an absolute path`},
		{"unknown session", func() error {
			_, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: "nope", Prompt: []sdk.ContentBlock{sdk.TextBlock("x")}})
			return err
		}, "no session nope on this connection"},
		{"load of a session that does not exist", func() error {
			_, err := r.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "20200101-000000-none", Cwd: r.work, McpServers: []sdk.McpServer{}})
			return err
		}, "20200101-000000-none"},
		{"image prompt", func() error {
			s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
			if err != nil {
				return err
			}
			_, err = r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.ImageBlock("AAAA", "image/png")}})
			return err
		}, "prompt[0] is an image"},
	} {
		err := tc.call()
		if err == nil || !strings.Contains(errText(err), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, errText(err), tc.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	b, _ := json.Marshal(err)
	return err.Error() + " " + string(b)
}

func TestPromptText(t *testing.T) {
	got, err := promptText([]sdk.ContentBlock{
		sdk.TextBlock("look at "), sdk.ResourceLinkBlock("main.go", "file:///p/main.go"),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///p/a.txt", Text: "alpha"}}),
	})
	want := "look at @/p/main.go\n<context source=\"/p/a.txt\">\nalpha\n</context>\n"
	if err != nil || got != want {
		t.Errorf("promptText = %q, %v; want %q", got, err, want)
	}
}

// TestModesAndAlways: a session offers synaps's permission modes; plan
// mode refuses a write without asking and says so to the editor; an
// "allow always" answer saves the rule, so the same command is not asked
// about again.
func TestModesAndAlways(t *testing.T) {
	base := t.TempDir()
	model := script(t, base, "turns.jsonl",
		`{"text":"Writing.","tool_calls":[{"name":"write","input":{"path":"notes.txt","content":"x"}}]}`,
		`{"text":"Refused."}`,
		`{"text":"Listing.","tool_calls":[{"name":"bash","input":{"command":"mkdir -pv one"}}]}`,
		`{"text":"Again.","tool_calls":[{"name":"bash","input":{"command":"mkdir -pv two"}}]}`,
		`{"text":"Done."}`,
	)
	ed := &editor{answer: "allow_always"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range s.Modes.AvailableModes {
		ids = append(ids, string(m.Id))
	}
	if s.Modes.CurrentModeId != "default" || strings.Join(ids, ",") != "default,acceptEdits,plan,bypassPermissions" {
		t.Errorf("modes %+v", s.Modes)
	}
	if _, err := r.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "yolo"}); err == nil || !strings.Contains(errText(err), "unknown permission mode") {
		t.Errorf("bad mode: %v", errText(err))
	}
	if _, err := r.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("write notes")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.work, "notes.txt")); err == nil {
		t.Error("plan mode wrote a file")
	}
	if len(ed.asked) != 0 {
		t.Errorf("plan mode asked: %d", len(ed.asked))
	}
	var modeUpdates []string
	for _, u := range ed.updates {
		if u.CurrentModeUpdate != nil {
			modeUpdates = append(modeUpdates, string(u.CurrentModeUpdate.CurrentModeId))
		}
	}
	if strings.Join(modeUpdates, ",") != "plan" {
		t.Errorf("mode updates %q", modeUpdates)
	}

	if _, err := r.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "default"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("mkdir twice")}}); err != nil {
		t.Fatal(err)
	}
	if len(ed.asked) != 1 {
		t.Fatalf("asked %d times, want once (the always rule answers the second mkdir)", len(ed.asked))
	}
	var opts []string
	for _, o := range ed.asked[0].Options {
		opts = append(opts, string(o.OptionId)+"="+o.Name)
	}
	if strings.Join(opts, " | ") != "allow_once=Allow | allow_always=Always allow Bash(mkdir:*) | reject_once=Reject" {
		t.Errorf("options %q", opts)
	}
	if got := ed.calls(); len(got) != 6 || got[3] != "end completed mkdir: created directory 'one'" || got[5] != "end completed mkdir: created directory 'two'" {
		t.Errorf("calls %q", got)
	}
}

// TestClientMCPServers: an MCP server the editor passes with session/new
// starts with the session; its tools reach the model as
// mcp__<server>__<tool> and run through the same permission question
// and hooks; initialize says which transports synaps takes.
func TestClientMCPServers(t *testing.T) {
	base := t.TempDir()
	guard(t, base)
	model := script(t, base, "turns.jsonl",
		`{"text":"Echoing.","tool_calls":[{"name":"mcp__t__echo","input":{"text":"hi"}}]}`,
		`{"text":"Done.","expect":{"last_tool_result_contains":"echo: hi"}}`,
	)
	ed := &editor{answer: "allow_once"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	init, err := r.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil || !init.AgentCapabilities.McpCapabilities.Http || !init.AgentCapabilities.McpCapabilities.Sse {
		t.Fatalf("initialize: %+v %v", init.AgentCapabilities.McpCapabilities, err)
	}
	self, _ := os.Executable()
	srv := sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "t", Command: self, Args: []string{}, Env: []sdk.EnvVariable{{Name: mcptest.Env, Value: "ok"}}}}
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{srv}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("echo")}})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	if got := ed.calls(); strings.Join(got, "\n") != "start other mcp__t__echo\nend completed echo: hi" {
		t.Errorf("calls %q", got)
	}
	if len(ed.asked) != 1 || *ed.asked[0].ToolCall.Title != "permissions asks: default mode asks before mcp__t__echo" {
		for _, a := range ed.asked {
			t.Logf("asked: %s", *a.ToolCall.Title)
		}
		t.Errorf("asked %d times", len(ed.asked))
	}

	// A transport synaps does not take (MCP over ACP) is refused, naming
	// the entry.
	_, err = r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{{Acp: &sdk.McpServerAcpInline{Id: "x", Name: "x", Type: "acp"}}}})
	if err == nil || !strings.Contains(errText(err), "mcpServers[0]: a transport synaps does not speak") {
		t.Errorf("bad server: %v", errText(err))
	}
}

// TestEditorFiles: when the editor offers its file system, the model
// reads the editor's buffer (unsaved changes included) and its edits go
// to the editor, not behind its back to the disk.
func TestEditorFiles(t *testing.T) {
	base := t.TempDir()
	model := script(t, base, "turns.jsonl",
		`{"text":"Reading.","tool_calls":[{"name":"read","input":{"path":"notes.txt"}}]}`,
		`{"text":"Editing.","tool_calls":[{"name":"edit","input":{"path":"notes.txt","old_string":"editor","new_string":"model"}}],"expect":{"last_tool_result_contains":"unsaved text in the editor"}}`,
		`{"text":"Done."}`,
	)
	ed := &editor{answer: "allow_once"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	notes := filepath.Join(r.work, "notes.txt")
	os.WriteFile(notes, []byte("saved text on disk\n"), 0o644)
	ed.buffers = map[string]string{notes: "unsaved text in the editor\n"}
	if _, err := r.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}}); err != nil {
		t.Fatal(err)
	}
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("fix the notes")}}); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	ed.mu.Lock()
	got := ed.buffers[notes]
	ed.mu.Unlock()
	if got != "unsaved text in the model\n" {
		t.Errorf("the editor's buffer is %q", got)
	}
	if b, _ := os.ReadFile(notes); string(b) != "saved text on disk\n" {
		t.Errorf("the disk was written behind the editor's back: %q", b)
	}
}

// TestEditorTerminal: when the editor offers a terminal, bash's commands
// run there — with synaps's scrubbed environment, not the editor's — the
// tool call shows the terminal, and a timeout kills the command.
func TestEditorTerminal(t *testing.T) {
	t.Setenv("SYNAPS_TEST_SECRET_TOKEN", "hunter2")
	base := t.TempDir()
	model := script(t, base, "turns.jsonl",
		`{"text":"Running.","tool_calls":[{"name":"bash","input":{"command":"echo out; echo token=${SYNAPS_TEST_SECRET_TOKEN:-none}; exit 3"}}]}`,
		`{"text":"Slow.","tool_calls":[{"name":"bash","input":{"command":"sleep 30","timeout":1}}],"expect":{"last_tool_result_contains":"token=none"}}`,
		`{"text":"Done.","expect":{"last_tool_result_contains":"command timed out after 1s"}}`,
	)
	ed := &editor{answer: "allow_once"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	if _, err := r.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: sdk.ClientCapabilities{Terminal: true}}); err != nil {
		t.Fatal(err)
	}
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("run")}}); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	ed.mu.Lock()
	argv := append([]string(nil), ed.termArgv...)
	ed.mu.Unlock()
	if len(argv) != 2 || !strings.HasPrefix(argv[0], "env -i ") || !strings.HasSuffix(argv[0], " -c echo out; echo token=${SYNAPS_TEST_SECRET_TOKEN:-none}; exit 3") {
		t.Errorf("terminals ran %q", argv)
	}
	var refs int
	for _, u := range ed.updates {
		if u.ToolCallUpdate != nil {
			for _, c := range u.ToolCallUpdate.Content {
				if c.Terminal != nil {
					refs++
				}
			}
		}
	}
	if refs != 2 {
		t.Errorf("%d tool call updates show a terminal, want 2", refs)
	}
	if got := ed.calls(); len(got) != 4 || got[1] != "end failed out\ntoken=none\nexit status 3" || !strings.HasPrefix(got[3], "end failed command timed out after 1s") {
		t.Errorf("calls %q", got)
	}
}
