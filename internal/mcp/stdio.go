package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"io"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage bounds one message a stdio server writes (one line of its
// stdout), as the go-sdk's own DefaultMaxLineLength does. The SDK ends
// the whole session at a longer line; synaps answers the call it was the
// reply to with an error instead, and the server stays.
const MaxMessage = 16 << 20

// commandTransport runs a stdio server as the go-sdk's CommandTransport
// does, but reads its stdout through a lineFilter: a stray line that is
// not JSON (a log line printed to stdout) is skipped, and a reply over
// limit becomes an error reply to its request, where the SDK alone would
// end the session at either.
type commandTransport struct {
	cmd   *exec.Cmd
	term  time.Duration
	limit int
	// noise hears each skipped line, for the server's stderr tail.
	noise func(string)
	// policy, when set, confines the server (confine); note hears the
	// refusals of its proxy.
	policy *sandbox.Policy
	note   func(string)
	// release, when set, ends what confining the server took (the
	// proxy of a restricted network) once the server has ended.
	release func()
}

func (t *commandTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if t.policy != nil {
		release, err := sandbox.Start(t.cmd, *t.policy, t.note)
		if err != nil {
			release()
			return nil, err // the pipes made above are closed
		}
		t.release = release
	} else if err := sandbox.StartPlain(t.cmd); err != nil {
		return nil, err
	}
	f := newLineFilter(stdout, t.limit, t.noise)
	// The filter bounds lines itself: the SDK's cap is off (-1), else it
	// could count a line's neighbours into its budget.
	io := &sdk.IOTransport{Reader: readOnly{f}, Writer: &procInput{cmd: t.cmd, stdin: stdin, term: t.term, release: t.release}, MaxLineLength: -1}
	return io.Connect(ctx)
}

// readOnly closes nothing: the connection ends by closing the server's
// stdin (procInput), as the MCP spec says, and the stdout pipe is closed
// by Wait.
type readOnly struct{ io.Reader }

func (readOnly) Close() error { return nil }

// procInput is the server's stdin; closing it stops the server the MCP
// way: stdin closed, wait, SIGTERM, wait, SIGKILL (the go-sdk's
// CommandTransport sequence).
type procInput struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	term  time.Duration
	// release is called once the process has been waited for (nil:
	// nothing to release).
	release func()
}

func (p *procInput) Write(b []byte) (int, error) { return p.stdin.Write(b) }

func (p *procInput) Close() error {
	if err := p.stdin.Close(); err != nil {
		return fmt.Errorf("closing stdin: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		err := p.cmd.Wait()
		if p.release != nil {
			p.release()
		}
		done <- err
	}()
	wait := func() (error, bool) {
		t := time.NewTimer(p.term)
		defer t.Stop()
		select {
		case err := <-done:
			return err, true
		case <-t.C:
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if p.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("the server process did not exit after SIGKILL")
}

// lineFilter passes on the lines of a stdio server's stdout that are JSON
// (the newline-delimited JSON-RPC of MCP's stdio transport). Blank lines
// are dropped; other lines are noise, told to noise and dropped. A line
// over limit is not kept: its top-level "id" is found as it streams by,
// and an error reply with that id, naming the size and the limit, is
// passed on in its place (none when it has no id, a notification).
type lineFilter struct {
	r     *bufio.Reader
	limit int
	noise func(string)
	// out is what Read hands out next; err ends reading after it.
	out []byte
	err error
	// buf is reused for the next line once out is handed out (kept
	// only up to keepBuf, so one huge line is not held for the session).
	buf []byte
}

const keepBuf = 1 << 20

func newLineFilter(r io.Reader, limit int, noise func(string)) *lineFilter {
	if limit <= 0 {
		limit = MaxMessage
	}
	if noise == nil {
		noise = func(string) {}
	}
	return &lineFilter{r: bufio.NewReaderSize(r, 64<<10), limit: limit, noise: noise}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

// next reads one line and sets out (and err at the end of the stream).
func (f *lineFilter) next() {
	line := f.buf[:0]
	defer func() {
		if cap(line) <= keepBuf {
			f.buf = line
		}
	}()
	var size int64
	var ids *idScanner
	for {
		chunk, err := f.r.ReadSlice('\n')
		size += int64(len(chunk))
		switch {
		case ids != nil:
			ids.feed(chunk)
		case len(line)+len(chunk) > f.limit:
			ids = &idScanner{}
			ids.feed(line)
			ids.feed(chunk)
			line = nil
		default:
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			f.err = err
		}
		break
	}
	if ids != nil {
		f.oversize(size, ids.id())
		return
	}
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return
	}
	if (msg[0] == '{' || msg[0] == '[') && json.Valid(msg) {
		f.out = append(msg, '\n')
		return
	}
	f.noise("stdout line that is not JSON-RPC, skipped: " + clip(string(msg), 200))
}

// oversize replaces a line over the limit by an error reply to its id.
func (f *lineFilter) oversize(size int64, id json.RawMessage) {
	what := fmt.Sprintf("the server's message of %s is over synaps's limit of %s for one MCP message", mib(size), mib(int64(f.limit)))
	if id == nil {
		f.noise(what + "; it named no request id, so it was dropped")
		return
	}
	f.noise(what + "; its request got an error instead")
	reply, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{Code: -32603, Message: what + " (the server stays up: ask the tool for less, e.g. a narrower query or a page of the result)"}})
	f.out = append(reply, '\n')
}

func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// idScanner finds the value of a JSON object's top-level "id" in a stream
// of bytes, in constant memory: an oversize reply may put its id after a
// result of many megabytes (the TypeScript SDK writes result, jsonrpc,
// id in that order).
type idScanner struct {
	depth    int
	inString bool
	escape   bool
	// key collects a top-level key (up to 8 bytes: only "id" matters);
	// inKey says a string at depth 1 is a key.
	key      []byte
	wantKey  bool
	inKey    bool
	keyIsID  bool
	value    []byte
	inValue  bool
	found    json.RawMessage
	overflow bool
	// started: the first byte that is not space was seen; bad: it was
	// not '{' (no object, no id).
	started, bad bool
}

func (s *idScanner) feed(b []byte) {
	if s.found != nil || s.bad {
		return
	}
	for _, c := range b {
		if !s.started {
			if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				continue
			}
			s.started = true
			if c != '{' {
				s.bad = true
				return
			}
		}
		if s.inValue {
			s.value = append(s.value, c)
			if len(s.value) > 256 {
				s.inValue, s.overflow = false, true
				s.value = nil
			}
		}
		if s.inString {
			switch {
			case s.escape:
				s.escape = false
			case c == '\\':
				s.escape = true
			case c == '"':
				s.inString = false
				if s.inKey {
					s.inKey = false
					s.keyIsID = string(s.key) == "id"
				}
			default:
				if s.inKey && len(s.key) < 8 {
					s.key = append(s.key, c)
				}
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
			if s.depth == 1 && s.wantKey {
				s.inKey, s.wantKey, s.key = true, false, s.key[:0]
			}
		case '{', '[':
			s.depth++
			if s.depth == 1 && c == '{' {
				s.wantKey = true
			}
		case '}', ']', ',':
			if s.depth == 1 && s.inValue {
				s.inValue = false
				v := bytes.TrimSpace(s.value[:len(s.value)-1])
				if json.Valid(v) && len(v) > 0 && (v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
					s.found = append(json.RawMessage(nil), v...)
					return
				}
			}
			if c == ',' && s.depth == 1 {
				s.wantKey = true
			}
			if c != ',' {
				s.depth--
			}
		case ':':
			if s.depth == 1 && s.keyIsID && !s.overflow {
				s.inValue, s.value, s.keyIsID = true, s.value[:0], false
			}
		}
	}
}

// id is the top-level "id" seen, or nil.
func (s *idScanner) id() json.RawMessage { return s.found }
