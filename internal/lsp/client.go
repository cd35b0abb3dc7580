package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/procgroup"
	"github.com/synaps-cli/synaps/internal/sandbox"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/lifeline"
)

// Client is one running language server: its process, the JSON-RPC
// connection on its stdin and stdout (Content-Length framing, as
// internal/jsonrpc speaks it), the documents synaps has opened in it and
// the diagnostics it last published for each.
type Client struct {
	cmd     *exec.Cmd
	conn    *jsonrpc.Conn
	stdin   io.WriteCloser
	stderr  *mcp.StderrTail
	release func() // ends what the sandbox took; called once the process has ended
	unguard func()
	// exited is closed when the process has been waited for; waitErr is
	// then why it ended.
	exited  chan struct{}
	waitErr error
	// saves: the server asked for didSave (its textDocumentSync.save).
	saves bool
	// settings answer workspace/configuration (nil: none).
	settings json.RawMessage

	mu sync.Mutex // guards docs
	// docs are the documents opened in the server, by cleaned absolute
	// path; a server's publishes for files synaps did not open are
	// kept too, so a later open starts from them.
	docs map[string]*document
}

// document is one file as the server knows it.
type document struct {
	open    bool
	version int // the version last sent
	// diags are the diagnostics last published; published counts the
	// publishes; pubVersion is the version the last one named (-1: none).
	diags      []Diagnostic
	published  int
	pubVersion int
	// changed is closed and replaced at each publish: waiters select on
	// it.
	changed chan struct{}
}

// StartOptions are what starting a server needs besides its config.
type StartOptions struct {
	// Command is the expanded command and Args its expanded arguments;
	// Env the process's whole environment; Dir the workspace folder.
	Command string
	Args    []string
	Env     []string
	Dir     string
	// Confine, when set, rewrites the command to run in the sandbox
	// before it starts (sandbox.Wrap) and returns what to release once
	// it has ended.
	Confine func(cmd *exec.Cmd, stderr io.Writer) (release func(), err error)
	// InitializationOptions and Settings are the config's.
	InitializationOptions json.RawMessage
	Settings              json.RawMessage
	// Version is synaps's version, for clientInfo.
	Version string
}

// Start runs the server and initializes it within ctx: initialize,
// initialized, and workspace/didChangeConfiguration when there are
// settings. The error of a server that exits or does not answer carries
// the end of its stderr.
func Start(ctx context.Context, o StartOptions) (*Client, error) {
	path, err := exec.LookPath(o.Command)
	if err != nil {
		return nil, fmt.Errorf("cannot start %q: %w; install it or give its full path in \"command\"", o.Command, err)
	}
	cmd := exec.Command(path, o.Args...)
	cmd.Args[0] = o.Command
	cmd.Dir = o.Dir
	cmd.Env = o.Env
	c := &Client{cmd: cmd, stderr: &mcp.StderrTail{}, exited: make(chan struct{}), settings: o.Settings, docs: map[string]*document{}, release: func() {}}
	cmd.Stderr = c.stderr
	cmd.SysProcAttr = procgroup.Group()
	cmd.WaitDelay = time.Second // a grandchild holding stderr must not hold up Wait
	if o.Confine != nil {
		if c.release, err = o.Confine(cmd, c.stderr); err != nil {
			return nil, err
		}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		c.release()
		return nil, err
	}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		c.release()
		return nil, err
	}
	if err := sandbox.StartPlain(cmd); err != nil {
		c.release()
		return nil, fmt.Errorf("cannot start %q: %w", o.Command, err)
	}
	c.unguard = lifeline.Guard(cmd.Process.Pid)
	go func() {
		c.waitErr = cmd.Wait()
		c.unguard()
		c.release()
		close(c.exited)
	}()
	c.conn = jsonrpc.NewConn(stdout, c.stdin, jsonrpc.Options{
		Handler:  c.answer,
		OnNotify: c.notified,
		Logf:     func(format string, args ...any) { fmt.Fprintf(c.stderr, "synaps: "+format+"\n", args...) },
	})
	if err := c.initialize(ctx, o); err != nil {
		c.kill()
		return nil, c.failure(err)
	}
	return c, nil
}

func (c *Client) initialize(ctx context.Context, o StartOptions) error {
	root, _ := filepath.Abs(o.Dir)
	params := initializeParams{
		ProcessID: os.Getpid(), ClientInfo: clientInfo{Name: "synaps", Version: o.Version},
		RootURI: fileURI(root), RootPath: root,
		WorkspaceFolders:      []workspaceFolder{{URI: fileURI(root), Name: filepath.Base(root)}},
		Capabilities:          clientCapabilities,
		InitializationOptions: o.InitializationOptions,
	}
	raw, err := c.call(ctx, "initialize", params)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	var res initializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("initialize: the answer is not an InitializeResult: %v", err)
	}
	c.saves = res.wantsSave()
	if err := c.conn.Notify("initialized", struct{}{}); err != nil {
		return err
	}
	if o.Settings != nil {
		return c.conn.Notify("workspace/didChangeConfiguration", map[string]json.RawMessage{"settings": o.Settings})
	}
	return nil
}

// call is conn.Call that also ends when the process exits.
func (c *Client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-c.exited:
			cancel(errExited)
		case <-ctx.Done():
		}
	}()
	raw, err := c.conn.Call(ctx, method, params)
	if err != nil && context.Cause(ctx) == errExited {
		return nil, errExited
	}
	return raw, err
}

var errExited = errors.New("the server exited")

// failure is err with the end of the server's stderr, and how it exited
// when it did.
func (c *Client) failure(err error) error {
	select {
	case <-c.exited:
		if c.waitErr != nil {
			err = fmt.Errorf("%w (%v)", err, c.waitErr)
		}
	default:
	}
	if lines := c.stderr.Lines(); len(lines) > 0 {
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		err = fmt.Errorf("%w\n  stderr: %s", err, strings.Join(lines, "\n  stderr: "))
	}
	return err
}

// answer serves the server's requests: workspace/configuration from the
// settings; the registrations and progress tokens servers ask for are
// acknowledged; anything else is "method not found".
func (c *Client) answer(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "workspace/configuration":
		var p configurationParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &jsonrpc.Error{Code: -32602, Message: err.Error()}
		}
		out := make([]json.RawMessage, len(p.Items))
		for i, it := range p.Items {
			out[i] = section(c.settings, it.Section)
		}
		return out, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create":
		return nil, nil
	case "workspace/workspaceFolders":
		return []workspaceFolder{{URI: fileURI(c.cmd.Dir), Name: filepath.Base(c.cmd.Dir)}}, nil
	}
	return nil, jsonrpc.MethodNotFound(method)
}

// section is the value at a dotted path of settings ("python.analysis"),
// null when there is none; "" is the whole of it.
func section(settings json.RawMessage, path string) json.RawMessage {
	cur := settings
	if cur == nil {
		return json.RawMessage("null")
	}
	if path == "" {
		return cur
	}
	for _, key := range strings.Split(path, ".") {
		var m map[string]json.RawMessage
		if json.Unmarshal(cur, &m) != nil {
			return json.RawMessage("null")
		}
		v, ok := m[key]
		if !ok {
			return json.RawMessage("null")
		}
		cur = v
	}
	return cur
}

// notified keeps publishDiagnostics; other notifications (log
// messages, progress) are dropped.
func (c *Client) notified(method string, params json.RawMessage) {
	if method != "textDocument/publishDiagnostics" {
		return
	}
	var p publishParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	path := uriPath(p.URI)
	if path == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.doc(path)
	d.diags = p.Diagnostics
	d.published++
	d.pubVersion = -1
	if p.Version != nil {
		d.pubVersion = *p.Version
	}
	close(d.changed)
	d.changed = make(chan struct{})
}

// doc is path's document, made when new. Callers hold mu.
func (c *Client) doc(path string) *document {
	d := c.docs[path]
	if d == nil {
		d = &document{changed: make(chan struct{}), pubVersion: -1}
		c.docs[path] = d
	}
	return d
}

// isOpen reports whether path has been opened in the server.
func (c *Client) isOpen(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.docs[filepath.Clean(path)]
	return d != nil && d.open
}

// known is the diagnostics last published for path (nil: none).
func (c *Client) known(path string) []Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.docs[filepath.Clean(path)]; d != nil {
		return d.diags
	}
	return nil
}

// uriPath is the cleaned path of a file: URI ("" for another scheme).
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// Sync sends text as path's content (didOpen the first time, didChange
// after, didSave when the server asked for it) and waits up to wait for
// the diagnostics the server publishes for it. It returns them and
// whether they came; without them it returns the last ones known.
func (c *Client) Sync(ctx context.Context, path, language, text string, wait time.Duration) ([]Diagnostic, bool, error) {
	path = filepath.Clean(path)
	uri := fileURI(path)
	c.mu.Lock()
	d := c.doc(path)
	d.version++
	version, open, mark := d.version, d.open, d.published
	d.open = true
	c.mu.Unlock()
	var err error
	if !open {
		err = c.conn.Notify("textDocument/didOpen", map[string]textDocumentItem{"textDocument": {URI: uri, LanguageID: language, Version: version, Text: text}})
	} else {
		err = c.conn.Notify("textDocument/didChange", didChangeParams{TextDocument: versionedDoc{URI: uri, Version: version}, ContentChanges: []wholeText{{Text: text}}})
	}
	if err == nil && c.saves {
		err = c.conn.Notify("textDocument/didSave", didSaveParams{TextDocument: docID{URI: uri}})
	}
	if err != nil {
		return nil, false, c.failure(err)
	}
	diags, ok := c.await(ctx, path, version, mark, wait)
	select {
	case <-c.exited:
		if !ok {
			return nil, false, c.failure(errExited)
		}
	default:
	}
	return diags, ok, nil
}

// await waits for a publish for path after mark that names version (or
// no version), up to wait.
func (c *Client) await(ctx context.Context, path string, version, mark int, wait time.Duration) ([]Diagnostic, bool) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		c.mu.Lock()
		d := c.docs[path]
		if d.published > mark && (d.pubVersion < 0 || d.pubVersion >= version) {
			diags := d.diags
			c.mu.Unlock()
			return diags, true
		}
		changed := d.changed
		diags := d.diags
		c.mu.Unlock()
		select {
		case <-changed:
		case <-timer.C:
			return diags, false
		case <-ctx.Done():
			return diags, false
		case <-c.exited:
			return diags, false
		}
	}
}

// Exited is closed when the server's process has ended.
func (c *Client) Exited() <-chan struct{} { return c.exited }

// ExitError says how the server ended (after Exited), with the end of
// its stderr.
func (c *Client) ExitError() error { return c.failure(errExited) }

// Close ends the server the LSP way: shutdown (within timeout), exit,
// stdin closed; a server that is still running a moment later is
// killed with its process group.
func (c *Client) Close(timeout time.Duration) {
	select {
	case <-c.exited:
		c.conn.Close()
		return
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	_, err := c.call(ctx, "shutdown", nil)
	cancel()
	if err == nil {
		_ = c.conn.Notify("exit", nil)
	}
	c.conn.Close()
	_ = c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(timeout):
	}
	c.kill()
}

// kill SIGKILLs the server's process group and waits for it.
func (c *Client) kill() {
	if c.cmd.Process != nil {
		_ = procgroup.Kill(c.cmd.Process)
		_ = c.cmd.Process.Kill()
	}
	if c.conn != nil {
		c.conn.Close()
	}
	<-c.exited
}
