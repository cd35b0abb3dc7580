package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// writeRecorder records every Write call separately, so tests can check
// that a frame goes out in exactly one Write.
type writeRecorder struct {
	mu     sync.Mutex
	w      []string
	signal chan struct{} // if set, gets a value after each Write
}

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.w = append(w.w, string(p))
	w.mu.Unlock()
	if w.signal != nil {
		w.signal <- struct{}{}
	}
	return len(p), nil
}

func (w *writeRecorder) writes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.w...)
}

// logRecorder collects Logf lines; waitFor blocks until a matching one.
type logRecorder struct{ ch chan string }

func newLogRecorder() *logRecorder { return &logRecorder{ch: make(chan string, 1000)} }

func (l *logRecorder) logf(format string, args ...any) {
	select {
	case l.ch <- fmt.Sprintf(format, args...):
	default:
	}
}

func (l *logRecorder) waitFor(substr string) string {
	for line := range l.ch {
		if strings.Contains(line, substr) {
			return line
		}
	}
	panic("unreachable")
}

// newPair connects two Conns with io.Pipes; both are closed at cleanup.
func newPair(t *testing.T, client, server Options) (*Conn, *Conn) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	c := NewConn(cr, cw, client)
	s := NewConn(sr, sw, server)
	t.Cleanup(func() {
		for _, conn := range []*Conn{c, s} {
			conn.Close()
			<-conn.Done()
		}
	})
	return c, s
}

// rawPeer is the far end of a Conn, driven frame by frame by the test.
type rawPeer struct {
	t  *testing.T
	fr *FrameReader
	w  *io.PipeWriter
}

func newRawPeer(t *testing.T, opts Options) (*Conn, *rawPeer) {
	cr, pw := io.Pipe()
	pr, cw := io.Pipe()
	c := NewConn(cr, cw, opts)
	t.Cleanup(func() {
		c.Close()
		<-c.Done()
		pr.Close()
		pw.Close()
	})
	return c, &rawPeer{t: t, fr: NewFrameReader(pr, 0, nil), w: pw}
}

// readBody returns the next body the Conn wrote.
func (p *rawPeer) readBody() string {
	p.t.Helper()
	b, err := p.fr.ReadFrame()
	if err != nil {
		p.t.Fatalf("peer read: %v", err)
	}
	return string(b)
}

func (p *rawPeer) read() Message {
	p.t.Helper()
	var m Message
	if err := json.Unmarshal([]byte(p.readBody()), &m); err != nil {
		p.t.Fatalf("peer decode: %v", err)
	}
	return m
}

func (p *rawPeer) send(body string) {
	p.t.Helper()
	if err := WriteFrame(p.w, []byte(body)); err != nil {
		p.t.Fatalf("peer write: %v", err)
	}
}

type callResult struct {
	result string
	err    error
}

// goCall runs Call in a goroutine.
func goCall(ctx context.Context, c *Conn, method string, params any) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		res, err := c.Call(ctx, method, params)
		ch <- callResult{string(res), err}
	}()
	return ch
}

func testHandler(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "echo":
		return params, nil
	case "nil":
		return nil, nil
	case "struct":
		return struct {
			Action string `json:"action"`
		}{"continue"}, nil
	case "fail":
		return nil, &Error{Code: 42, Message: "nope", Data: json.RawMessage(`{"why":"x"}`)}
	case "wrapped":
		return nil, fmt.Errorf("context: %w", &Error{Code: 7, Message: "inner"})
	case "plain":
		return nil, errors.New("disk full")
	case "panic":
		panic("oops")
	case "bad-result":
		return func() {}, nil
	case "wait-ctx":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, MethodNotFound(method)
}

func TestCall(t *testing.T) {
	c, _ := newPair(t, Options{}, Options{Handler: testHandler})
	tests := []struct {
		method string
		params any
		want   string
		err    *Error
	}{
		{method: "echo", params: map[string]any{"a": 1, "s": "héé€"}, want: `{"a":1,"s":"héé€"}`},
		{method: "echo", params: nil, want: "null"},
		{method: "echo", params: json.RawMessage(`[1, 2]`), want: "[1, 2]"}, // raw JSON is sent verbatim
		{method: "nil", want: "null"},
		{method: "struct", want: `{"action":"continue"}`},
		{method: "fail", err: &Error{Code: 42, Message: "nope", Data: json.RawMessage(`{"why":"x"}`)}},
		{method: "wrapped", err: &Error{Code: 7, Message: "inner"}},
		{method: "plain", err: &Error{Code: CodeInternalError, Message: "disk full"}},
		{method: "panic", err: &Error{Code: CodeInternalError, Message: "handler panicked: oops"}},
		{method: "bad-result", err: &Error{Code: CodeInternalError, Message: "encoding result: json: unsupported type: func()"}},
		{method: "no/such", err: &Error{Code: CodeMethodNotFound, Message: "method not found: no/such"}},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			res, err := c.Call(context.Background(), tt.method, tt.params)
			var rpcErr *Error
			if err != nil && !errors.As(err, &rpcErr) {
				t.Fatalf("Call: %v", err)
			}
			if diff := cmp.Diff(tt.err, rpcErr); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tt.err == nil && string(res) != tt.want {
				t.Errorf("result = %s, want %s", res, tt.want)
			}
		})
	}
}

func TestCallWithoutHandlerIsMethodNotFound(t *testing.T) {
	c, _ := newPair(t, Options{}, Options{})
	_, err := c.Call(context.Background(), "tool.call", map[string]any{"name": "x"})
	if diff := cmp.Diff(error(MethodNotFound("tool.call")), err); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

// TestConcurrentCalls runs calls in both directions at once; the race
// detector checks the locking, the results check the id matching.
func TestConcurrentCalls(t *testing.T) {
	c, s := newPair(t, Options{Handler: testHandler}, Options{Handler: testHandler})
	var wg sync.WaitGroup
	for g := range 8 {
		conn := []*Conn{c, s}[g%2]
		wg.Go(func() {
			for i := range 50 {
				want := fmt.Sprintf(`{"g":%d,"i":%d}`, g, i)
				res, err := conn.Call(context.Background(), "echo", json.RawMessage(want))
				if err != nil || string(res) != want {
					t.Errorf("Call = %s, %v; want %s", res, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestOutOfOrderResponses(t *testing.T) {
	c, p := newRawPeer(t, Options{})
	calls := map[string]<-chan callResult{}
	for _, s := range []string{"a", "b", "c"} {
		calls[s] = goCall(context.Background(), c, "echo", s)
	}
	reqs := []Message{p.read(), p.read(), p.read()}
	for i := len(reqs) - 1; i >= 0; i-- {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, reqs[i].ID, reqs[i].Params))
	}
	for s, ch := range calls {
		if r := <-ch; r.err != nil || r.result != `"`+s+`"` {
			t.Errorf("call %q = %+v", s, r)
		}
	}
}

// TestResponseIDs checks that ids are compared as JSON values, and that an
// extension echoing the id as a string ("7") is understood.
func TestResponseIDs(t *testing.T) {
	c, p := newRawPeer(t, Options{})
	forms := []string{`%d`, `%d.0`, `%de0`, `"%d"`, `%d`, `%d`, `"%d"`}
	for i, form := range forms {
		ch := goCall(context.Background(), c, "m", nil)
		req := p.read()
		if want := fmt.Sprint(i + 1); string(req.ID) != want {
			t.Fatalf("request id = %s, want %s", req.ID, want)
		}
		id := fmt.Sprintf(form, i+1)
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"result":"ok"}`)
		if r := <-ch; r.err != nil || r.result != `"ok"` {
			t.Errorf("reply with id %s: %+v", id, r)
		}
	}
}

// TestMalformedResponse checks that a response whose fields have the wrong
// types fails its call at once instead of leaving it to time out.
func TestMalformedResponse(t *testing.T) {
	c, p := newRawPeer(t, Options{})
	ch := goCall(context.Background(), c, "m", nil)
	req := p.read()
	p.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":"it broke"}`)
	r := <-ch
	var e *Error
	if !errors.As(r.err, &e) || e.Code != CodeParseError || !strings.Contains(e.Message, "malformed response") {
		t.Errorf("Call = %+v, want a -32700 malformed response error", r)
	}
}

// TestCallCanceled checks that a call whose ctx ends (deadline or cancel:
// the same path) is forgotten: its pending entry goes, and the late response
// is logged as an unknown id.
func TestCallCanceled(t *testing.T) {
	log := newLogRecorder()
	c, p := newRawPeer(t, Options{Logf: log.logf})
	ctx, cancel := context.WithCancel(context.Background())
	ch := goCall(ctx, c, "slow", nil)
	req := p.read()
	cancel()
	if r := <-ch; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("Call err = %v, want context.Canceled", r.err)
	}
	c.mu.Lock()
	n := len(c.state.pending)
	c.mu.Unlock()
	if n != 0 {
		t.Errorf("%d pending calls after timeout, want 0", n)
	}
	p.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":"late"}`)
	if got, want := log.waitFor("unknown-id"), "jsonrpc: unknown-id: dropping response with unknown id 1"; got != want {
		t.Errorf("log = %q, want %q", got, want)
	}

	// The connection still works.
	ch = goCall(context.Background(), c, "next", nil)
	req = p.read()
	p.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":"fine"}`)
	if r := <-ch; r.err != nil || r.result != `"fine"` {
		t.Errorf("next call = %+v", r)
	}
}

// TestSkippedBodies checks that bodies that are not JSON-RPC are logged
// and skipped, and that the connection survives them.
func TestSkippedBodies(t *testing.T) {
	log := newLogRecorder()
	var mu sync.Mutex
	var events []event
	onNoise := func(kind, detail string) {
		mu.Lock()
		events = append(events, event{kind, detail})
		mu.Unlock()
	}
	c, p := newRawPeer(t, Options{Logf: log.logf, OnNoise: onNoise})
	ch := goCall(context.Background(), c, "m", nil)
	req := p.read()
	p.send(`{not json`)
	p.send(`[1,2]`)
	p.send(`{}`)
	p.send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	if _, err := io.WriteString(p.w, "hello\n"); err != nil {
		t.Fatal(err)
	}
	p.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":true}`)
	if r := <-ch; r.err != nil || r.result != "true" {
		t.Errorf("call = %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []event{
		{"bad-json", `skipping body: invalid character 'n' looking for beginning of object key string: "{not json"`},
		{"bad-json", `skipping body: json: cannot unmarshal array into Go value of type jsonrpc.Message: "[1,2]"`},
		{"not-jsonrpc", `skipping body without method or id: "{}"`},
		{"unknown-id", "dropping response with unknown id null: jsonrpc: parse error (code -32700)"},
		{"noise", "hello\n"},
	}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	log.waitFor(`skipped stdout noise: "hello\n"`)
}

func TestNotify(t *testing.T) {
	type note struct{ Method, Params string }
	got := make(chan note, 2)
	onNotify := func(method string, params json.RawMessage) { got <- note{method, string(params)} }
	_, p := newRawPeer(t, Options{OnNotify: onNotify})
	p.send(`{"jsonrpc":"2.0","method":"log","params":{"msg":"hi"}}`)
	p.send(`{"jsonrpc":"2.0","method":"progress","id":null}`) // a notification too
	want := []note{{"log", `{"msg":"hi"}`}, {"progress", ""}}
	if diff := cmp.Diff(want, []note{<-got, <-got}); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}

	// And the other direction, between two Conns.
	client, _ := newPair(t, Options{}, Options{OnNotify: onNotify})
	if err := client.Notify("cancel", []int{1}); err != nil {
		t.Fatal(err)
	}
	if n := <-got; n != (note{"cancel", "[1]"}) {
		t.Errorf("notification = %+v", n)
	}
}

// TestRequestsFromPeer checks the exact replies to a peer's requests,
// including its non-integer ids, echoed verbatim.
func TestRequestsFromPeer(t *testing.T) {
	tests := []struct {
		name    string
		handler Handler
		req     string
		want    string
	}{
		{"no handler", nil, `{"jsonrpc":"2.0","id":"abc","method":"nope"}`,
			`{"jsonrpc":"2.0","id":"abc","error":{"code":-32601,"message":"method not found: nope"}}`},
		{"escaping", func(context.Context, string, json.RawMessage) (any, error) { return "<é>\n", nil },
			`{"jsonrpc":"2.0","id":1,"method":"m"}`, `{"jsonrpc":"2.0","id":1,"result":"<é>\n"}`},
		{"unknown method", testHandler, `{"jsonrpc":"2.0","id":3,"method":"nope","params":{}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found: nope"}}`},
		{"echo", testHandler, `{"jsonrpc":"2.0","id":5,"method":"echo","params":[1, "<é>"]}`,
			`{"jsonrpc":"2.0","id":5,"result":[1, "<é>"]}`},
		{"error data", testHandler, `{"jsonrpc":"2.0","id":-1.5,"method":"fail"}`,
			`{"jsonrpc":"2.0","id":-1.5,"error":{"code":42,"message":"nope","data":{"why":"x"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := newRawPeer(t, Options{Handler: tt.handler})
			p.send(tt.req)
			if got := p.readBody(); got != tt.want {
				t.Errorf("reply = %s\nwant    %s", got, tt.want)
			}
		})
	}
}

// TestStrictWriter checks the exact bytes the runtime writes, and that each
// frame is one Write.
func TestStrictWriter(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	rec := &writeRecorder{signal: make(chan struct{}, 10)}
	c := NewConn(r, rec, Options{})
	defer func() { c.Close(); <-c.Done() }()

	ctx, cancel := context.WithCancel(context.Background())
	ch := goCall(ctx, c, "initialize", map[string]any{"plugin_id": "hello-ext"})
	<-rec.signal
	cancel()
	<-ch
	if err := c.Notify(`we"ird`, nil); err != nil {
		t.Fatal(err)
	}
	<-rec.signal
	body1 := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"plugin_id":"hello-ext"}}`
	body2 := `{"jsonrpc":"2.0","method":"we\"ird","params":null}`
	want := []string{
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body1), body1),
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body2), body2),
	}
	if diff := cmp.Diff(want, rec.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

func TestEncodeError(t *testing.T) {
	c, _ := newPair(t, Options{}, Options{Handler: testHandler})
	if _, err := c.Call(context.Background(), "echo", make(chan int)); err == nil {
		t.Error("Call with unencodable params succeeded")
	}
	if err := c.Notify("echo", make(chan int)); err == nil {
		t.Error("Notify with unencodable params succeeded")
	}
	if res, err := c.Call(context.Background(), "echo", 1); err != nil || string(res) != "1" {
		t.Errorf("Call after encode errors = %s, %v", res, err)
	}
}

// TestEOFFailsPending checks that when the extension's stdout ends, calls
// in flight fail at once instead of waiting for their deadlines.
func TestEOFFailsPending(t *testing.T) {
	c, p := newRawPeer(t, Options{})
	ch := goCall(context.Background(), c, "m", nil)
	p.read()
	p.w.Close()
	r := <-ch
	if !errors.Is(r.err, ErrClosed) || !errors.Is(r.err, io.EOF) {
		t.Errorf("pending call err = %v, want ErrClosed and io.EOF", r.err)
	}
	<-c.Done()
	if err := c.Err(); err != io.EOF {
		t.Errorf("Err = %v, want io.EOF", err)
	}
	if _, err := c.Call(context.Background(), "m", nil); !errors.Is(err, ErrClosed) || !errors.Is(err, io.EOF) {
		t.Errorf("Call after EOF = %v", err)
	}
	if err := c.Notify("m", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Notify after EOF = %v", err)
	}
}

func TestFrameTooLargeEndsConn(t *testing.T) {
	c, p := newRawPeer(t, Options{MaxBody: 1 << 10})
	ch := goCall(context.Background(), c, "m", nil)
	p.read()
	if _, err := io.WriteString(p.w, "Content-Length: 1099511627776\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if r := <-ch; !errors.Is(r.err, ErrClosed) || !errors.Is(r.err, ErrFrameTooLarge) {
		t.Errorf("pending call err = %v", r.err)
	}
	<-c.Done()
	if err := c.Err(); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("Err = %v", err)
	}
}

func TestClose(t *testing.T) {
	started := make(chan struct{})
	handler := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		close(started)
		<-ctx.Done() // handlers are cancelled with the Conn
		return nil, ctx.Err()
	}
	c, p := newRawPeer(t, Options{Handler: handler})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"wait"}`)
	<-started
	ch := goCall(context.Background(), c, "m", nil)
	p.read()
	if err := c.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if r := <-ch; !errors.Is(r.err, ErrClosed) {
		t.Errorf("pending call err = %v, want ErrClosed", r.err)
	}
	<-c.Done()
	if err := c.Err(); err != ErrClosed {
		t.Errorf("Err = %v, want ErrClosed", err)
	}
	if _, err := c.Call(context.Background(), "m", nil); !errors.Is(err, ErrClosed) || err.Error() != ErrClosed.Error() {
		t.Errorf("Call after Close = %v, want ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	// goleak (TestMain) checks the handler goroutine and the read loop exit.
}

func TestCallCanceledBeforeSend(t *testing.T) {
	c, _ := newPair(t, Options{}, Options{Handler: testHandler})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Call(ctx, "echo", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Call = %v, want context.Canceled", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.nextID != 0 {
		t.Errorf("an id was used for a call that was never sent")
	}
}

// stuckWriter is a peer that stopped reading: Write blocks until Close.
type stuckWriter struct {
	entered chan struct{}
	closed  chan struct{}
	once    sync.Once
}

func newStuckWriter() *stuckWriter {
	return &stuckWriter{entered: make(chan struct{}, 10), closed: make(chan struct{})}
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.entered <- struct{}{}
	<-w.closed
	return 0, io.ErrClosedPipe
}

func (w *stuckWriter) Close() error {
	w.once.Do(func() { close(w.closed) })
	return nil
}

// TestStuckWrite checks Call against a peer that stopped reading, with a
// writer that cannot be interrupted: a call waiting behind the stuck Write
// gives up when its ctx ends, the stuck one when Close unblocks its Write.
func TestStuckWrite(t *testing.T) {
	r, pw := io.Pipe()
	defer pw.Close()
	w := newStuckWriter()
	c := NewConn(r, w, Options{})

	ctx1, cancel1 := context.WithCancel(context.Background())
	ch1 := goCall(ctx1, c, "first", nil)
	<-w.entered // first is inside Write

	ctx2, cancel2 := context.WithCancel(context.Background())
	ch2 := goCall(ctx2, c, "second", nil)
	cancel2()
	if r := <-ch2; !errors.Is(r.err, context.Canceled) {
		t.Errorf("waiting call = %v, want context.Canceled", r.err)
	}
	cancel1()
	if err := c.Err(); err != nil {
		t.Fatalf("Conn ended: %v", err)
	}
	c.Close()
	<-c.Done()
	if r := <-ch1; !errors.Is(r.err, context.Canceled) {
		t.Errorf("stuck call = %v, want context.Canceled", r.err)
	}
}

// deadlineWriter stands in for an os.File pipe whose reader stopped: its
// first Write accepts `accept` bytes, then blocks until a write deadline is
// set. Later Writes succeed and signal later.
type deadlineWriter struct {
	accept   int
	entered  chan struct{}
	later    chan struct{}
	deadline chan struct{}
	mu       sync.Mutex
	calls    []string // SetWriteDeadline calls: "now" or "zero"
	writes   int
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	first := w.writes == 1
	w.mu.Unlock()
	if !first {
		w.later <- struct{}{}
		return len(p), nil
	}
	w.entered <- struct{}{}
	<-w.deadline
	return w.accept, os.ErrDeadlineExceeded
}

func (w *deadlineWriter) SetWriteDeadline(t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t.IsZero() {
		w.calls = append(w.calls, "zero")
	} else {
		w.calls = append(w.calls, "now")
		close(w.deadline)
	}
	return nil
}

// TestInterruptedWrite checks that a ctx ending during a blocked Write
// interrupts it through the write deadline: the call fails with ctx's error,
// and the Conn survives if nothing was written, but is closed if part of the
// frame was (the stream is corrupt then).
func TestInterruptedWrite(t *testing.T) {
	for _, accept := range []int{0, 10} {
		t.Run(fmt.Sprint("accept ", accept), func(t *testing.T) {
			r, pw := io.Pipe()
			defer pw.Close()
			w := &deadlineWriter{accept: accept, entered: make(chan struct{}), later: make(chan struct{}, 1), deadline: make(chan struct{})}
			c := NewConn(r, w, Options{})
			defer func() { c.Close(); <-c.Done() }()

			ctx, cancel := context.WithCancel(context.Background())
			ch := goCall(ctx, c, "first", nil)
			<-w.entered
			cancel()
			if r := <-ch; !errors.Is(r.err, context.Canceled) {
				t.Errorf("Call = %v, want context.Canceled", r.err)
			}
			w.mu.Lock()
			if diff := cmp.Diff([]string{"now", "zero"}, w.calls); diff != "" {
				t.Errorf("SetWriteDeadline calls (-want +got):\n%s", diff)
			}
			w.mu.Unlock()

			if accept > 0 {
				<-c.Done()
				if err := c.Err(); !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "cut off after 10 of") {
					t.Errorf("Err = %v", err)
				}
				return
			}
			ch = goCall(context.Background(), c, "second", nil)
			<-w.later
			if err := WriteFrame(pw, []byte(`{"jsonrpc":"2.0","id":2,"result":1}`)); err != nil {
				t.Fatal(err)
			}
			if r := <-ch; r.err != nil || r.result != "1" {
				t.Errorf("Call after an interrupted empty write = %+v", r)
			}
		})
	}
}

// TestInterruptedWriteOSPipe runs the cut-off case on a real pipe, whose
// *os.File has the write deadline Conn relies on.
func TestInterruptedWriteOSPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pr, pw := io.Pipe()
	defer pw.Close()
	c := NewConn(pr, w, Options{})
	defer func() { c.Close(); <-c.Done() }()

	ctx, cancel := context.WithCancel(context.Background())
	big := json.RawMessage(`"` + strings.Repeat("x", 1<<20) + `"`) // far more than a pipe holds
	ch := goCall(ctx, c, "big", big)
	if _, err := r.Read(make([]byte, 1)); err != nil { // the Write has begun
		t.Fatal(err)
	}
	cancel()
	if r := <-ch; !errors.Is(r.err, context.Canceled) {
		t.Errorf("Call = %v, want context.Canceled", r.err)
	}
	<-c.Done()
	if err := c.Err(); !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "cut off after") {
		t.Errorf("Err = %v", err)
	}
}

// ErrNotSent tells a caller whether the peer can have seen the request: a
// call refused by a closed or ended Conn, or whose write failed, wraps it;
// a call the peer read and then never answered does not. Extensions rely
// on it to resend a tool call only when the tool cannot have run.
func TestCallErrNotSent(t *testing.T) {
	t.Run("peer read the request, then closed", func(t *testing.T) {
		c, p := newRawPeer(t, Options{})
		ch := goCall(context.Background(), c, "m", nil)
		p.read()
		p.w.Close()
		r := <-ch
		if !errors.Is(r.err, ErrClosed) || errors.Is(r.err, ErrNotSent) {
			t.Errorf("err = %v: want ErrClosed, not ErrNotSent", r.err)
		}
	})
	t.Run("conn already ended", func(t *testing.T) {
		c, p := newRawPeer(t, Options{})
		p.w.Close()
		<-c.Done()
		_, err := c.Call(context.Background(), "m", nil)
		if !errors.Is(err, ErrNotSent) || !errors.Is(err, ErrClosed) || !errors.Is(err, io.EOF) {
			t.Errorf("err = %v: want ErrNotSent, ErrClosed and io.EOF", err)
		}
		if got, want := err.Error(), "jsonrpc: connection closed: EOF"; got != want {
			t.Errorf("text = %q, want %q (ErrNotSent must not change it)", got, want)
		}
	})
	t.Run("conn closed", func(t *testing.T) {
		c, _ := newRawPeer(t, Options{})
		c.Close()
		if _, err := c.Call(context.Background(), "m", nil); !errors.Is(err, ErrNotSent) || !errors.Is(err, ErrClosed) {
			t.Errorf("err = %v: want ErrNotSent and ErrClosed", err)
		}
	})
	t.Run("broken pipe", func(t *testing.T) {
		// The peer is gone: its read end of our pipe is closed, but our
		// read loop has not seen EOF (the peer's write end is held open).
		cr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		pr, cw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		pr.Close()
		c := NewConn(cr, cw, Options{})
		defer func() { c.Close(); <-c.Done(); pw.Close() }()
		_, err = c.Call(context.Background(), "m", nil)
		if !errors.Is(err, ErrNotSent) {
			t.Errorf("err = %v: want ErrNotSent", err)
		}
	})
}

// A peer that sends requests and never reads the replies costs at most
// MaxInFlight requests being served: past that the Conn stops reading
// (the peer's writes block), and after StallTimeout it ends with
// ErrPeerNotReading. Before, every request got a goroutine blocked on the
// reply, without bound.
func TestPeerNotReadingIsBounded(t *testing.T) {
	var mu sync.Mutex
	handled := 0
	c, p := newRawPeer(t, Options{
		MaxInFlight:  4,
		StallTimeout: 200 * time.Millisecond,
		Handler: func(ctx context.Context, method string, params json.RawMessage) (any, error) {
			mu.Lock()
			handled++
			mu.Unlock()
			return "a reply nobody reads", nil
		},
	})
	sent := make(chan int, 1)
	go func() {
		n := 0
		for ; n < 10000; n++ {
			if WriteFrame(p.w, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"flood"}`, n+1))) != nil {
				break
			}
		}
		sent <- n
	}()
	<-c.Done()
	if err := c.Err(); !errors.Is(err, ErrPeerNotReading) || !errors.Is(err, ErrClosed) {
		t.Fatalf("Err = %v, want ErrPeerNotReading and ErrClosed", err)
	}
	p.w.CloseWithError(io.ErrClosedPipe) // unblock the flood if it is still writing
	n := <-sent
	mu.Lock()
	defer mu.Unlock()
	// The Conn read MaxInFlight requests and the one it was holding when
	// it stalled; the rest of the flood was never read.
	if handled > 4 || n > 6 {
		t.Errorf("handled %d requests and read %d of 10000; want at most 4 handled and 6 read", handled, n)
	}
	if _, err := c.Call(context.Background(), "m", nil); !errors.Is(err, ErrPeerNotReading) {
		t.Errorf("Call after the stall = %v", err)
	}
}

// TestEncodedParamsGoAsTheyAre: params the caller encoded itself are sent
// byte for byte, without the check a json.RawMessage gets; empty ones are
// null.
func TestEncodedParamsGoAsTheyAre(t *testing.T) {
	for _, tc := range []struct {
		params Encoded
		want   string
	}{
		{Encoded(`{"kind":"before_tool_call","tool_input":{"command":"ls"}}`), `{"kind":"before_tool_call","tool_input":{"command":"ls"}}`},
		{nil, `null`},
	} {
		f, err := request(3, "hook.handle", tc.params)
		if err != nil {
			t.Fatal(err)
		}
		got := string(f.b.Bytes()[headerRoom:])
		f.free()
		if want := `{"jsonrpc":"2.0","id":3,"method":"hook.handle","params":` + tc.want + `}`; got != want {
			t.Errorf("request = %s, want %s", got, want)
		}
	}
}
