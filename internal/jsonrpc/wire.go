package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"sync"
)

// ID is a request id the runtime sends: integers counting from 1.
type ID = int64

// Message is one decoded frame of any kind: a request (Method and ID), a
// notification (Method, no ID), or a response (ID, and Result or Error).
// It is what the reader decodes into; the writer does not use it (see
// frameBuf), so that the runtime's own output has one fixed shape.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Error is a JSON-RPC error object. A Handler returns one to choose the code
// the peer sees; Call returns one when the peer answers with an error.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc: %s (code %d)", e.Message, e.Code)
}

// Error codes defined by JSON-RPC 2.0.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// MethodNotFound returns the error a Conn answers for a method no one
// handles; Handlers use it for methods they do not know.
func MethodNotFound(method string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: "method not found: " + method}
}

// parseID reads the id of a response to one of our requests. It compares
// JSON values, not text: 7, 7.0 and 7e0 are all request 7, and so is the
// string "7", which some extensions echo back after converting ids to text.
func parseID(raw []byte) (ID, bool) {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		raw = raw[1 : n-1]
	}
	f, err := strconv.ParseFloat(string(raw), 64) // short: no allocation
	if err != nil || f != math.Trunc(f) || f < 1 || f > 1<<53 {
		return 0, false
	}
	return ID(f), true
}

// request encodes a request, or a notification if id is 0.
func request(id ID, method string, params any) (*frameBuf, error) {
	f := newFrameBuf()
	f.raw(`{"jsonrpc":"2.0",`)
	if id != 0 {
		f.raw(`"id":`)
		f.b.Write(strconv.AppendInt(f.b.AvailableBuffer(), id, 10))
		f.raw(",")
	}
	f.raw(`"method":`)
	f.string(method)
	f.raw(`,"params":`)
	if err := f.value(params); err != nil {
		f.free()
		return nil, fmt.Errorf("jsonrpc: encoding params of %s: %w", method, err)
	}
	f.raw("}")
	return f, nil
}

// frameBuf builds one outgoing frame: the JSON body is appended after
// headerRoom reserved bytes, and frame fills in the header in front of it,
// so a message is encoded and written without any copy or allocation of its
// own. frameBufs are pooled together with their json.Encoder.
type frameBuf struct {
	b   bytes.Buffer
	enc *json.Encoder // writes into b
}

var frameBufs = sync.Pool{New: func() any {
	f := new(frameBuf)
	f.enc = json.NewEncoder(&f.b)
	f.enc.SetEscapeHTML(false)
	return f
}}

var zeroRoom [headerRoom]byte

func newFrameBuf() *frameBuf {
	f := frameBufs.Get().(*frameBuf)
	f.b.Reset()
	f.b.Write(zeroRoom[:])
	return f
}

// free returns f to the pool unless a huge message grew it.
func (f *frameBuf) free() {
	if f.b.Cap() <= 64<<10 {
		frameBufs.Put(f)
	}
}

func (f *frameBuf) raw(s string) { f.b.WriteString(s) }

// Encoded is JSON the caller made with encoding/json (so it is valid),
// sent as it is without the check a json.RawMessage gets: the hook path
// encodes each event once and sends it to every link.
type Encoded []byte

// value appends v as JSON (nil is null). A valid json.RawMessage, or
// Encoded, is copied as it is: no reflection, no compaction.
func (f *frameBuf) value(v any) error {
	if raw, ok := v.(Encoded); ok {
		if len(raw) == 0 {
			raw = Encoded("null")
		}
		f.b.Write(raw)
		return nil
	}
	if raw, ok := v.(json.RawMessage); ok && json.Valid(raw) {
		f.b.Write(raw)
		return nil
	}
	if err := f.enc.Encode(v); err != nil {
		return err
	}
	f.b.Truncate(f.b.Len() - 1) // Encode appends a newline
	return nil
}

// string appends s as a JSON string; method names are plain ASCII, which
// needs no escaping and no reflection.
func (f *frameBuf) string(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			f.value(s) // cannot fail for a string
			return
		}
	}
	f.b.WriteByte('"')
	f.b.WriteString(s)
	f.b.WriteByte('"')
}

// frame returns the finished frame: header and body, contiguous.
func (f *frameBuf) frame() []byte {
	b := f.b.Bytes()
	var hdr [headerRoom]byte
	h := appendHeader(hdr[:0], len(b)-headerRoom)
	start := headerRoom - len(h)
	copy(b[start:], h)
	return b[start:]
}
