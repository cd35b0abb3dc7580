package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"sync"
	"time"
)

// ErrClosed is wrapped by the errors of calls on a Conn that has been closed
// or whose read loop has ended (test with errors.Is); errors for the latter
// also wrap the loop's reason.
var ErrClosed = errors.New("jsonrpc: connection closed")

// ErrNotSent is wrapped, next to the real cause, by the error of a Call
// whose request never reached the peer whole: the Conn had already closed
// or ended, or writing the frame failed (a broken pipe). The peer cannot
// have acted on such a request, so a caller may send it again even when
// it has side effects; after any other failure it may have run.
var ErrNotSent = errors.New("jsonrpc: request not sent")

// ErrPeerNotReading is wrapped (with ErrClosed) by the error that ends a
// Conn whose peer kept sending requests without reading the replies for
// Options.StallTimeout.
var ErrPeerNotReading = errors.New("the peer sends requests but does not read the replies")

// DefaultMaxInFlight is the default Options.MaxInFlight.
const DefaultMaxInFlight = 64

// notSent marks err as ErrNotSent without changing its text.
type notSent struct{ err error }

func (e notSent) Error() string   { return e.err.Error() }
func (e notSent) Unwrap() []error { return []error{e.err, ErrNotSent} }

// Handler answers a request from the peer. It runs in its own goroutine with
// a context that is cancelled when the Conn ends. A returned error that is
// (or wraps) an *Error is sent as-is; any other error is sent as -32603.
type Handler func(ctx context.Context, method string, params json.RawMessage) (result any, err error)

// Options configures a Conn. Every field is optional.
type Options struct {
	// MaxBody is the largest message body accepted, in bytes; a larger
	// Content-Length ends the connection. 0 means DefaultMaxBody (16 MiB).
	MaxBody int
	// Handler answers requests from the peer. nil answers every request
	// with -32601 "method not found: <method>", so a peer never hangs.
	Handler Handler
	// OnNotify receives notifications from the peer, in order, on the read
	// loop: it must not block, nor Call on this Conn. nil drops them.
	OnNotify func(method string, params json.RawMessage)
	// Logf receives one line per tolerated anomaly: stdout noise, skipped
	// header blocks, bare-"\n" framing, bodies that are not JSON-RPC,
	// responses with unknown ids, failed replies. nil discards them.
	Logf func(format string, args ...any)
	// OnNoise, if set, also receives each anomaly in structured form, for a
	// conformance checker or health reporting. kind is one of the
	// FrameReader kinds ("noise", "bad-header", "lf-framing") or "bad-json",
	// "not-jsonrpc", "unknown-id". It is called on the read loop.
	OnNoise func(kind, detail string)
	// MaxInFlight bounds the peer's requests being answered at once (the
	// Handler running, or its reply waiting to be written). At the bound the
	// read loop stops reading until one is done, so a peer that sends
	// requests without reading the replies is held back by its own full
	// pipe instead of growing this process's memory. 0 means
	// DefaultMaxInFlight.
	MaxInFlight int
	// StallTimeout ends the Conn with ErrPeerNotReading when the read loop
	// has waited this long for one of the MaxInFlight requests to be done.
	// 0 means it waits as long as the Conn lives.
	StallTimeout time.Duration
}

// Conn is one JSON-RPC 2.0 connection over a framed byte stream, typically
// an extension's stdout (r) and stdin (w). Both sides may send requests and
// notifications. All methods are safe for concurrent use.
type Conn struct {
	r    io.Reader
	w    io.Writer
	opts Options
	fr   *FrameReader // used only by the read loop
	msg  Message      // decode scratch, used only by the read loop
	done chan struct{}
	// inFlight holds one token per peer request being served; the read
	// loop puts one in before serving and waits while it is full.
	inFlight chan struct{}
	// throttled says the read loop last had to wait for a slot, so the
	// wait is logged once per episode, not per request. Read loop only.
	throttled bool

	// ctx is passed to handlers and cancelled when the Conn ends.
	ctx    context.Context
	cancel context.CancelFunc

	// wlock is a one-slot semaphore held for each whole frame written to w.
	// It is a channel so that a Call can stop waiting for it when its ctx
	// ends, and it is not mu because a Write can block on a full pipe while
	// the read loop must go on taking mu. Nothing waits for one holding the
	// other.
	wlock chan struct{}

	mu    sync.Mutex // guards state
	state connState
}

// connState is everything about a Conn that changes after NewConn; all of it
// is guarded by Conn.mu.
type connState struct {
	nextID      ID                // id of the last request sent; ids start at 1
	pending     map[ID]chan reply // in-flight calls; each chan (cap 1) gets exactly one reply, sent under mu
	writing     ID                // the call whose request is in an interruptible w.Write, or 0
	interrupted bool              // a ctx ended during that Write and set w's write deadline
	closing     bool              // Close ran (or a frame was cut off): no new calls or notifications
	closeErr    error             // why closing: ErrClosed, or an error wrapping it
	ended       bool              // the read loop has returned
	err         error             // why the read loop returned; set with ended
}

// reply is what a pending call receives: the peer's response, or the error
// that ended the connection.
type reply struct {
	result json.RawMessage
	err    error
}

// replyChans recycles the per-call channels. A channel goes back only when
// it is known to be empty: its reply was received, or its pending entry was
// removed before anyone sent.
var replyChans = sync.Pool{New: func() any { return make(chan reply, 1) }}

// NewConn returns a Conn reading frames from r and writing them to w, and
// starts its read loop.
func NewConn(r io.Reader, w io.Writer, opts Options) *Conn {
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	c := &Conn{r: r, w: w, opts: opts, done: make(chan struct{}), wlock: make(chan struct{}, 1), inFlight: make(chan struct{}, opts.MaxInFlight)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.state.pending = make(map[ID]chan reply)
	c.fr = NewFrameReader(r, opts.MaxBody, c.report)
	go c.readLoop()
	return c
}

// Call sends a request with the next id and waits for its response, for ctx
// to be done, or for the connection to end. params is marshalled as given
// (nil is null; a json.RawMessage is checked and sent verbatim). A JSON-RPC
// error response is returned as *Error, a response without result as null.
// If ctx ends first, the call is forgotten and a late response is logged as
// an unknown id. A peer that stops reading can block the request's Write;
// if w has SetWriteDeadline (os.File pipes), ctx interrupts it, and if part
// of the frame was written by then the Conn is closed, since the stream is
// corrupt. Other writers' Writes end only when Close closes them.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ch := replyChans.Get().(chan reply)
	c.mu.Lock()
	if err := c.refuseLocked(); err != nil {
		c.mu.Unlock()
		replyChans.Put(ch)
		return nil, notSent{err}
	}
	c.state.nextID++
	id := c.state.nextID
	c.state.pending[id] = ch
	c.mu.Unlock()

	f, err := request(id, method, params)
	if err == nil {
		err = c.write(ctx, id, f.frame())
		f.free()
	}
	if err == nil {
		select {
		case r := <-ch:
			replyChans.Put(ch)
			return r.result, r.err
		case <-ctx.Done():
			if r, ok := c.forget(id, ch); ok { // the reply won the race: use it
				return r.result, r.err
			}
		}
	} else {
		if r, ok := c.forget(id, ch); ok && r.err != nil {
			err = r.err // the Conn closed under the Write: say so (ErrClosed)
		}
		if ctx.Err() == nil {
			// The frame was not written whole (or not encoded at all).
			return nil, notSent{err}
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("jsonrpc: call %s (id %d): %w", method, id, ctx.Err())
	}
	return nil, err
}

// forget removes the pending call id. If its reply was already sent, it
// returns that reply instead. Either way ch is empty afterwards and recycled.
func (c *Conn) forget(id ID, ch chan reply) (reply, bool) {
	c.mu.Lock()
	_, pending := c.state.pending[id]
	delete(c.state.pending, id)
	c.mu.Unlock()
	var r reply
	if !pending {
		r = <-ch // sent under mu before the entry was deleted: ready now
	}
	replyChans.Put(ch)
	return r, !pending
}

// Notify sends a notification (a request without id; no reply comes). It
// blocks while the peer is not reading, until the Conn is closed.
func (c *Conn) Notify(method string, params any) error {
	c.mu.Lock()
	err := c.refuseLocked()
	c.mu.Unlock()
	if err != nil {
		return err
	}
	f, err := request(0, method, params)
	if err != nil {
		return err
	}
	defer f.free()
	return c.write(context.Background(), 0, f.frame())
}

// Done is closed when the read loop ends: at EOF, on a fatal protocol error
// or read error, or after Close once the reader is closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the read loop ended: io.EOF for a clean end of stream,
// ErrClosed after Close (or an error wrapping it after a cut-off frame),
// an error wrapping ErrFrameTooLarge, or the read error; nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.err
}

// Close stops new calls, fails pending calls with ErrClosed, cancels the
// handlers' context and closes w and then r if they are io.Closers. Closing
// w tells an extension to exit (EOF on its stdin); closing r is what stops
// the read loop, which otherwise ends only when r returns an error. Close
// does not wait for handlers. Later calls return nil.
func (c *Conn) Close() error { return c.close(ErrClosed) }

func (c *Conn) close(reason error) error {
	c.mu.Lock()
	if c.state.closing {
		c.mu.Unlock()
		return nil
	}
	c.state.closing, c.state.closeErr = true, reason
	c.failPendingLocked(reason)
	c.mu.Unlock()
	c.cancel()

	var errs []error
	wc, _ := c.w.(io.Closer)
	if wc != nil {
		errs = append(errs, wc.Close())
	}
	if rc, ok := c.r.(io.Closer); ok && !same(rc, wc) {
		errs = append(errs, rc.Close())
	}
	return errors.Join(errs...)
}

// same reports whether a and b are the same comparable value, so that a
// ReadWriteCloser passed as both r and w is closed once.
func same(a, b any) bool {
	ta := reflect.TypeOf(a)
	return ta != nil && ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// refuseLocked returns the error for a new call or notification, if any.
func (c *Conn) refuseLocked() error {
	switch {
	case c.state.ended:
		return closedErr(c.state.err)
	case c.state.closing:
		return c.state.closeErr
	}
	return nil
}

func closedErr(reason error) error {
	if errors.Is(reason, ErrClosed) {
		return reason
	}
	return fmt.Errorf("%w: %w", ErrClosed, reason)
}

func (c *Conn) failPendingLocked(err error) {
	for id, ch := range c.state.pending {
		ch <- reply{err: err}
		delete(c.state.pending, id)
	}
}

// deadliner is a writer whose blocked Write can be interrupted: an os.File
// pipe, such as exec.Cmd.StdinPipe returns.
type deadliner interface{ SetWriteDeadline(time.Time) error }

// write sends one complete frame, giving up if ctx ends before it can start.
// For a call (id != 0) on a deadliner, a ctx that ends during the Write
// interrupts it; if that leaves part of the frame written, the stream is
// corrupt and the Conn is closed.
func (c *Conn) write(ctx context.Context, id ID, frame []byte) error {
	select {
	case c.wlock <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.wlock }()
	if err := ctx.Err(); err != nil {
		return err
	}
	dl, _ := c.w.(deadliner)
	var stop func() bool
	if dl != nil && id != 0 && ctx.Done() != nil {
		c.mu.Lock()
		c.state.writing = id
		c.mu.Unlock()
		stop = context.AfterFunc(ctx, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.state.writing == id {
				c.state.interrupted = true
				dl.SetWriteDeadline(time.Now())
			}
		})
	}
	n, err := c.w.Write(frame)
	if stop != nil {
		c.mu.Lock()
		interrupted := c.state.interrupted
		c.state.writing, c.state.interrupted = 0, false
		c.mu.Unlock()
		stop()
		if interrupted {
			dl.SetWriteDeadline(time.Time{})
			if n > 0 && n < len(frame) {
				c.close(fmt.Errorf("%w: peer stopped reading; request %d cut off after %d of %d bytes", ErrClosed, id, n, len(frame)))
			}
		}
	}
	if err != nil {
		return fmt.Errorf("jsonrpc: write: %w", err)
	}
	return nil
}

func (c *Conn) readLoop() {
	var err error
	for {
		var body []byte
		if body, err = c.fr.ReadFrame(); err != nil {
			break
		}
		if err = c.dispatch(body); err != nil {
			c.close(err)
			break
		}
	}
	c.mu.Lock()
	if c.state.closing {
		err = c.state.closeErr // the read error is most likely our own Close
	}
	c.state.ended, c.state.err = true, err
	c.failPendingLocked(closedErr(err))
	c.mu.Unlock()
	c.cancel()
	close(c.done)
}

// dispatch routes one body. The body is only valid until the next read, so
// everything kept from it is copied by json.Unmarshal (RawMessage copies).
// An error ends the Conn: the peer's requests stalled (see admit).
func (c *Conn) dispatch(body []byte) error {
	m := &c.msg
	*m = Message{} // fresh RawMessages: the old ones belong to their receivers
	if err := json.Unmarshal(body, m); err != nil {
		c.report("bad-json", fmt.Sprintf("skipping body: %v: %q", err, clip(body)))
		// A response with a mistyped field (say, "error": "text") still
		// names its call: fail it now rather than at its deadline.
		if m.Method == "" && m.ID != nil {
			c.deliver(&Message{ID: m.ID, Error: &Error{Code: CodeParseError, Message: "malformed response: " + err.Error()}})
		}
		return nil
	}
	// "id": null with a method is treated as a notification: some writers
	// serialise a notification's absent id as null, and a reply would be
	// an unknown-id response to them.
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method != "" && hasID:
		if err := c.admit(); err != nil {
			return err
		}
		go c.serve(m.ID, m.Method, m.Params)
	case m.Method != "":
		if c.opts.OnNotify != nil {
			c.opts.OnNotify(m.Method, m.Params)
		}
	case len(m.ID) > 0: // a response; one without result or error means null
		c.deliver(m)
	default:
		c.report("not-jsonrpc", fmt.Sprintf("skipping body without method or id: %q", clip(body)))
	}
	return nil
}

// admit takes an in-flight slot for a peer request, waiting while all
// MaxInFlight are taken — the read loop reads nothing meanwhile, which is
// the back-pressure — for at most StallTimeout. It fails when the Conn ends
// or the wait times out.
func (c *Conn) admit() error {
	select {
	case c.inFlight <- struct{}{}:
		c.throttled = false
		return nil
	default:
	}
	var stall <-chan time.Time
	if c.opts.StallTimeout > 0 {
		t := time.NewTimer(c.opts.StallTimeout)
		defer t.Stop()
		stall = t.C
	}
	if !c.throttled {
		c.throttled = true
		c.logf("jsonrpc: %d requests from the peer are waiting for their replies to be read; not reading from it until one is", c.opts.MaxInFlight)
	}
	select {
	case c.inFlight <- struct{}{}:
		return nil
	case <-c.ctx.Done():
		return ErrClosed
	case <-stall:
		return fmt.Errorf("%w: %w: %d of its requests waited %s for their replies to be read", ErrClosed, ErrPeerNotReading, c.opts.MaxInFlight, c.opts.StallTimeout)
	}
}

// deliver hands a response to its pending call.
func (c *Conn) deliver(m *Message) {
	r := reply{result: m.Result}
	if m.Error != nil {
		r = reply{err: m.Error}
	} else if r.result == nil {
		r.result = json.RawMessage("null")
	}
	id, ok := parseID(m.ID)
	if ok {
		c.mu.Lock()
		var ch chan reply
		if ch, ok = c.state.pending[id]; ok {
			ch <- r
			delete(c.state.pending, id)
		}
		c.mu.Unlock()
	}
	if !ok {
		detail := fmt.Sprintf("dropping response with unknown id %s", m.ID)
		if m.Error != nil {
			detail += ": " + m.Error.Error()
		}
		c.report("unknown-id", detail)
	}
}

// serve runs the Handler for one request and writes its reply, then gives
// back the in-flight slot admit took for it.
func (c *Conn) serve(id json.RawMessage, method string, params json.RawMessage) {
	defer func() { <-c.inFlight }()
	result, err := c.handle(method, params)
	f := newFrameBuf()
	defer f.free()
	f.raw(`{"jsonrpc":"2.0","id":`)
	f.b.Write(id)
	if mark := f.b.Len(); err == nil {
		f.raw(`,"result":`)
		if err = f.value(result); err != nil {
			f.b.Truncate(mark)
			err = fmt.Errorf("encoding result: %w", err)
		}
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeInternalError, Message: err.Error()}
		}
		f.raw(`,"error":`)
		if f.value(e) != nil { // only Data can fail: drop it
			f.value(&Error{Code: e.Code, Message: e.Message})
		}
	}
	f.raw("}")
	if err := c.write(c.ctx, 0, f.frame()); err != nil {
		c.logf("jsonrpc: reply to %s (id %s) not sent: %v", method, id, err)
	}
}

// handle calls the Handler, turning a panic into an internal error so that a
// bad request cannot crash the runtime.
func (c *Conn) handle(method string, params json.RawMessage) (result any, err error) {
	if c.opts.Handler == nil {
		return nil, MethodNotFound(method)
	}
	defer func() {
		if p := recover(); p != nil {
			c.logf("jsonrpc: handler for %s panicked: %v\n%s", method, p, debug.Stack())
			result, err = nil, &Error{Code: CodeInternalError, Message: fmt.Sprintf("handler panicked: %v", p)}
		}
	}()
	return c.opts.Handler(c.ctx, method, params)
}

// report passes an anomaly to OnNoise and Logf.
func (c *Conn) report(kind, detail string) {
	if c.opts.OnNoise != nil {
		c.opts.OnNoise(kind, detail)
	}
	if kind == "noise" {
		c.logf("jsonrpc: skipped stdout noise: %q", detail)
		return
	}
	c.logf("jsonrpc: %s: %s", kind, detail)
}

func (c *Conn) logf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf(format, args...)
	}
}

// clip shortens a body for a log line.
func clip(b []byte) []byte {
	if len(b) > maxNoiseDetail {
		return b[:maxNoiseDetail]
	}
	return b
}
