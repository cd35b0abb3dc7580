// Package acp serves synaps as an Agent Client Protocol agent: an editor
// (Zed, JetBrains, Neovim plugins) starts `synaps acp` and talks to it
// over stdio, newline-delimited JSON-RPC.
//
// Each ACP session is one synaps session opened by the app (its own
// working directory, extensions, hooks and session file), so what an
// editor drives is exactly what the terminal drives: the same hook
// chain, the same saved sessions (session/load takes a synaps session
// id). Agent events become session/update notifications; every confirm
// becomes session/request_permission.
//
// This package is the only importer of github.com/coder/acp-go-sdk; it
// knows the app's surface, not its parts.
package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/permission"
	synapssession "github.com/synaps-cli/synaps/internal/session"
)

// Server is the agent side of one ACP connection.
type Server struct {
	// Options is the template every session opens with (base dir, model,
	// extensions); WorkDir, Resume, Confirmer and OnEvent are set per
	// session.
	Options app.Options
	// Version is synaps's version, reported at initialize.
	Version string
	// Log receives what the editor should not see in the conversation:
	// notices, warnings. nil: stderr.
	Log io.Writer

	// conn is the connection, published to the handlers by ready: the
	// SDK starts reading (and calling them) before NewAgentSideConnection
	// returns.
	conn  *sdk.AgentSideConnection
	ready chan struct{}

	mu       sync.Mutex
	sessions map[sdk.SessionId]*session
	// client is what the editor offered at initialize (its file system).
	client sdk.ClientCapabilities
}

// Serve answers ACP requests read from in, writing to out, until in ends
// or ctx is cancelled; then it closes every session (their extensions
// stop, their files are saved). At the end of in, the requests already
// read are answered first: a running prompt's turn goes to its end (see
// inflight).
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s.sessions = map[sdk.SessionId]*session{}
	s.ready = make(chan struct{})
	wire := newInflight(in, out)
	defer context.AfterFunc(ctx, func() { wire.finish(ctx.Err()) })()
	s.conn = sdk.NewAgentSideConnection(s, wire, wire)
	// The SDK logs connection events; keep its warnings and errors in
	// the agent's log, beside synaps's own.
	s.conn.SetLogger(slog.New(slog.NewTextHandler(s.logWriter(), &slog.HandlerOptions{Level: slog.LevelWarn})))
	close(s.ready)
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	s.mu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		sessions = append(sessions, ss)
	}
	s.sessions = map[sdk.SessionId]*session{}
	s.mu.Unlock()
	for _, ss := range sessions {
		ss.close(context.WithoutCancel(ctx))
	}
	return nil
}

// peer is the connection, once Serve has it (see ready).
func (s *Server) peer() *sdk.AgentSideConnection {
	<-s.ready
	return s.conn
}

func (s *Server) logWriter() io.Writer {
	if s.Log == nil {
		return os.Stderr
	}
	return s.Log
}

func (s *Server) logf(format string, args ...any) {
	fmt.Fprintf(s.logWriter(), "synaps acp: "+format+"\n", args...)
}

var _ sdk.Agent = (*Server)(nil)
var _ sdk.AgentLoader = (*Server)(nil)

// Initialize implements sdk.Agent: protocol version 1, sessions that can
// be loaded, prompts with text and embedded context.
func (s *Server) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.mu.Lock()
	s.client = p.ClientCapabilities
	s.mu.Unlock()
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersion(min(int(p.ProtocolVersion), sdk.ProtocolVersionNumber)),
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
		},
		AgentInfo:   &sdk.Implementation{Name: "synaps", Version: s.Version},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

// Authenticate implements sdk.Agent: synaps offers no authentication
// methods (model keys come from its own environment and config).
func (s *Server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// NewSession implements sdk.Agent: a new synaps session in cwd.
func (s *Server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	ss, err := s.open(ctx, p.Cwd, "", p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	return sdk.NewSessionResponse{SessionId: ss.id, Modes: ss.modes()}, nil
}

// LoadSession implements sdk.AgentLoader: the synaps session with that id
// is opened again and its conversation replayed as updates before the
// answer.
func (s *Server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	if p.SessionId == "" {
		return sdk.LoadSessionResponse{}, sdk.NewInvalidParams("sessionId is empty: give the id session/new returned (or one `synaps sessions list` shows)")
	}
	if err := synapssession.CheckID(string(p.SessionId)); err != nil {
		// The id names the session's files: "../x" would read and append
		// outside the sessions directory.
		return sdk.LoadSessionResponse{}, sdk.NewInvalidParams("sessionId: " + err.Error())
	}
	s.mu.Lock()
	_, open := s.sessions[p.SessionId]
	s.mu.Unlock()
	if open {
		return sdk.LoadSessionResponse{}, sdk.NewInvalidParams(fmt.Sprintf("session %s is already open on this connection", p.SessionId))
	}
	ss, err := s.open(ctx, p.Cwd, string(p.SessionId), p.McpServers)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	ss.replay(ctx)
	return sdk.LoadSessionResponse{Modes: ss.modes()}, nil
}

// open opens a synaps session for ACP: cwd must be absolute (the
// protocol says so, and a relative one would depend on where the editor
// started synaps).
func (s *Server) open(ctx context.Context, cwd, resume string, clientMCP []sdk.McpServer) (*session, error) {
	if !filepath.IsAbs(cwd) {
		return nil, sdk.NewInvalidParams(fmt.Sprintf("cwd %q must be an absolute path", cwd))
	}
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return nil, sdk.NewInvalidParams(fmt.Sprintf("cwd %q is not a directory", cwd))
	}
	servers, err := mcpServers(clientMCP)
	if err != nil {
		return nil, sdk.NewInvalidParams(err.Error())
	}
	ss := &session{srv: s, tools: map[string]string{}}
	o := s.Options
	o.WorkDir, o.Resume, o.Continue = cwd, resume, false
	o.MCPServers = append(append([]mcp.Server(nil), o.MCPServers...), servers...)
	s.mu.Lock()
	client := s.client
	s.mu.Unlock()
	if client.Fs.ReadTextFile && client.Fs.WriteTextFile {
		// The editor's buffers are the files the model reads and edits.
		o.Files = editorFiles{ss}
	}
	if client.Terminal {
		o.Terminal = editorTerminal{ss}
	}
	o.Confirmer = permissioner{ss}
	o.LeavePlan = "the editor's mode selector, to default or acceptEdits"
	// The editor hears every event in order, as the turn makes it.
	o.OnEvent = ss.event
	hs, err := host.New().Open(ctx, o)
	if err != nil {
		return nil, sdk.NewInternalError(err.Error())
	}
	a := hs.App()
	if a.Agent == nil {
		_ = hs.Close(context.WithoutCancel(ctx))
		return nil, sdk.NewInternalError("no model: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or `model` in synaps's config, for the editor's environment")
	}
	for _, n := range a.Notes {
		s.logf("%s", n)
	}
	ss.hs, ss.app, ss.id = hs, a, sdk.SessionId(hs.ID())
	s.mu.Lock()
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	return ss, nil
}

func (s *Server) session(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.sessions[id]
	if !ok {
		return nil, sdk.NewInvalidParams(fmt.Sprintf("no session %s on this connection: call session/new or session/load first", id))
	}
	return ss, nil
}

// Prompt implements sdk.Agent: one user turn, streamed as updates. The
// answer says why the turn ended.
func (s *Server) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	text, err := promptText(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, sdk.NewInvalidParams(err.Error())
	}
	return ss.prompt(ctx, text)
}

// Cancel implements sdk.Agent: the running turn stops where it is (tool
// calls answered, session saved); its session/prompt answers "cancelled".
func (s *Server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	if ss, err := s.session(p.SessionId); err == nil {
		ss.cancelTurn()
	}
	return nil
}

// CloseSession implements sdk.Agent: the session's extensions stop and
// its file is final.
func (s *Server) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.CloseSessionResponse{}, err
	}
	s.mu.Lock()
	delete(s.sessions, p.SessionId)
	s.mu.Unlock()
	ss.close(ctx)
	return sdk.CloseSessionResponse{}, nil
}

// errUnsupported answers the methods synaps does not offer (it does not
// advertise them either).
func errUnsupported(method string) error { return sdk.NewMethodNotFound(method) }

// ListSessions implements sdk.Agent; not advertised.
func (s *Server) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, errUnsupported("session/list")
}

// ResumeSession implements sdk.Agent; not advertised (session/load is).
func (s *Server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, errUnsupported("session/resume")
}

// SetSessionConfigOption implements sdk.Agent; not advertised.
func (s *Server) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, errUnsupported("session/set_config_option")
}

// SetSessionMode implements sdk.Agent: the session's permission mode
// (default, acceptEdits, plan, bypassPermissions), as Shift+Tab sets it
// in the terminal.
func (s *Server) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	m, err := permission.ParseMode(string(p.ModeId))
	if err != nil {
		return sdk.SetSessionModeResponse{}, sdk.NewInvalidParams(err.Error())
	}
	ss.app.Permissions.SetMode(m)
	ss.update(sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(m), SessionUpdate: "current_mode_update"}})
	return sdk.SetSessionModeResponse{}, nil
}

// stopReason maps how agent.Send ended to ACP's stop reasons.
func stopReason(ctx context.Context, err error) (sdk.StopReason, error) {
	switch {
	case err == nil:
		return sdk.StopReasonEndTurn, nil
	case ctx.Err() != nil:
		return sdk.StopReasonCancelled, nil
	case errors.Is(err, agent.ErrTurnLimit):
		return sdk.StopReasonMaxTurnRequests, nil
	}
	return "", sdk.NewInternalError(err.Error())
}
