package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/lifeline"
	"github.com/synaps-cli/synaps/internal/procgroup"
)

// transport builds the SDK transport of an expanded server config.
func (s *server) transport(c Server) (sdk.Transport, error) {
	switch c.Type {
	case TransportStdio:
		path, err := exec.LookPath(c.Command)
		if err != nil {
			return nil, fmt.Errorf("cannot start %q: %w; install it or give its full path in \"command\" (%s)", c.Command, err, c.Source.File)
		}
		dir := c.Cwd
		if dir == "" {
			dir = s.m.opts.WorkDir
		} else if !filepath.IsAbs(dir) && s.m.opts.WorkDir != "" {
			dir = filepath.Join(s.m.opts.WorkDir, dir)
		}
		cmd := exec.Command(path, c.Args...)
		cmd.Args[0] = c.Command
		cmd.Dir = dir
		cmd.Env = ServerEnv(s.m.opts.Getenv, c.Env)
		cmd.Stderr = &s.stderr
		cmd.SysProcAttr = procgroup.Group()
		// A grandchild holding stderr open must not hold up Wait.
		cmd.WaitDelay = s.m.term
		noise := func(msg string) { fmt.Fprintf(&s.stderr, "synaps: %s\n", msg) }
		inner := &commandTransport{cmd: cmd, term: s.m.term, limit: MaxMessage, noise: noise}
		s.confine(c, inner, noise)
		return &stdioTransport{s: s, inner: inner}, nil
	case TransportHTTP, TransportSSE:
		client := httpClient(c.URL, c.Headers)
		if c.Type == TransportSSE {
			return sseTransport{ctx: s.m.ctx, inner: &sdk.SSEClientTransport{Endpoint: c.URL, HTTPClient: client}}, nil
		}
		return &sdk.StreamableClientTransport{Endpoint: c.URL, HTTPClient: client}, nil
	}
	return nil, fmt.Errorf("unknown transport %q", c.Type)
}

// stdioTransport is the command transport that also announces the
// server's process group to the lifeline, so the server dies with synaps.
type stdioTransport struct {
	s     *server
	inner *commandTransport
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", t.inner.cmd.Path, err)
	}
	p := &proc{process: t.inner.cmd.Process, unguard: lifeline.Guard(t.inner.cmd.Process.Pid)}
	t.s.mu.Lock()
	t.s.proc = p
	t.s.mu.Unlock()
	return conn, nil
}

// sseTransport opens the SSE stream with the manager's context: the SDK
// ties the stream to the context Connect gets, and the start timeout's
// context ends as soon as the server is ready.
type sseTransport struct {
	ctx   context.Context
	inner *sdk.SSEClientTransport
}

func (t sseTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	// The stream lives as long as the manager; until it is open, the
	// start timeout (ctx) bounds it too.
	lctx, cancel := context.WithCancel(t.ctx)
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.inner.Connect(lctx)
	if !stop() || err != nil {
		cancel()
		if err == nil {
			conn.Close()
			err = ctx.Err()
		}
		return nil, err
	}
	return conn, nil
}

// proc is a started stdio server's process group.
type proc struct {
	process *os.Process
	unguard func()
}

// killLeftovers SIGKILLs what is left of a stdio server's process group
// (npx's node child, say) once the server itself has been stopped.
func (s *server) killLeftovers() {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p == nil {
		return
	}
	_ = procgroup.Kill(p.process)
	p.unguard()
}

// StderrTail keeps the last stderrLines lines a server writes to stderr,
// for its status and errors (an MCP server's; a language server's too,
// internal/lsp). Its zero value is ready to use.
type StderrTail struct {
	mu sync.Mutex
	// buf holds kept lines; part the unfinished last line. Guarded by mu.
	buf  []string
	part string
	// Explain, when set, says what the sandbox refused that a line
	// reports; its lines are kept after the line (confine sets it).
	Explain func(line string) []string
}

const stderrLines = 20

func (t *StderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.part + string(p)
	lines := strings.Split(s, "\n")
	t.part = lines[len(lines)-1]
	if len(t.part) > 4096 {
		t.part = t.part[len(t.part)-4096:]
	}
	for _, l := range lines[:len(lines)-1] {
		l = strings.TrimRight(l, "\r")
		t.buf = append(t.buf, l)
		if t.Explain != nil {
			for _, b := range t.Explain(l) {
				t.buf = append(t.buf, "synaps: "+b)
			}
		}
	}
	if len(t.buf) > stderrLines {
		t.buf = append([]string(nil), t.buf[len(t.buf)-stderrLines:]...)
	}
	return len(p), nil
}

// Lines are the kept lines, the unfinished last one included.
func (t *StderrTail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.buf...)
	if t.part != "" {
		out = append(out, t.part)
	}
	return out
}
