package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// maxErrorBody bounds how much of an error response is read: enough for
// any JSON error, little enough that an HTML error page costs nothing.
const maxErrorBody = 64 << 10

// maxErrorText bounds a non-JSON error body quoted in an APIError.
const maxErrorText = 300

// Post sends body as JSON to endpoint and returns the response when its
// status is 2xx and it is not a JSON document (which would mean the server
// ignored "stream": true; that is an error naming the URL). Otherwise it returns an *llm.APIError built from the
// status, the Retry-After headers and the service's error body, or, when
// the server could not be reached, a Temporary error that names endpoint
// and the base-URL environment variable. If ctx ends first, it returns
// ctx.Err().
//
// body is in parts: a long conversation's kept encoding and what is new
// in this request are written to the connection one after the other,
// never joined into another copy.
func Post(ctx context.Context, client *http.Client, provider, endpoint string, header http.Header, body [][]byte) (*http.Response, error) {
	resp, err := send(ctx, client, provider, endpoint, header, body)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return resp, nil
	}
	// A whole JSON answer to a streaming request: a proxy or server that
	// does not stream, or a base URL that points elsewhere.
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	_, urlEnv := llm.EnvNames(provider)
	return nil, fmt.Errorf("%s: %s answered with JSON instead of an event stream (check %s; the server may not support streaming): %s",
		provider, endpoint, urlEnv, ParseError(provider, data).Message)
}

// send posts body to endpoint and returns the response when its status
// is 2xx, whatever it holds; otherwise the errors Post describes.
func send(ctx context.Context, client *http.Client, provider, endpoint string, header http.Header, body [][]byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, http.NoBody)
	if err == nil {
		var size int64
		for _, p := range body {
			size += int64(len(p))
		}
		req.Body, req.ContentLength = &partsReader{parts: body}, size
		req.GetBody = func() (io.ReadCloser, error) { return &partsReader{parts: body}, nil }
	}
	if err != nil {
		_, urlEnv := llm.EnvNames(provider)
		return nil, fmt.Errorf("%s: %q is not a usable URL (check %s): %w", provider, endpoint, urlEnv, err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if client == nil {
		client = defaultClient()
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err
		}
		_, urlEnv := llm.EnvNames(provider)
		return nil, Temporary(fmt.Errorf("%s: cannot reach %s (check %s and your network): %w", provider, endpoint, urlEnv, err))
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	apiErr := ParseError(provider, data)
	apiErr.Status = resp.StatusCode
	apiErr.RetryAfter = RetryAfter(resp.Header, time.Now())
	if apiErr.Message == "" {
		apiErr.Message = http.StatusText(resp.StatusCode)
	}
	return nil, apiErr
}

// defaultClient sends the requests of a caller that gives no client:
// net/http's default transport (proxies from the environment, HTTP/2,
// keep-alive) with a 256 KiB write buffer instead of 4 KiB, for what
// goes through it, and each plain-TCP connection under a gatherConn,
// which sends a request's head and body (megabytes in a long
// conversation) in one gathered write (gather.go). Built on first use,
// not at start-up.
var defaultClient = sync.OnceValue(func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.WriteBufferSize = 256 << 10
	t.DialContext = dialGather(t.DialContext)
	return &http.Client{Transport: t}
})

// partsReader reads parts one after the other; the parts are not
// changed, so that a retry reads them again.
type partsReader struct {
	parts [][]byte
	i     int // the part being read
	off   int // how much of it has been read
}

func (r *partsReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.i < len(r.parts) {
		c := copy(p[n:], r.parts[r.i][r.off:])
		n += c
		if r.off += c; r.off == len(r.parts[r.i]) {
			r.i, r.off = r.i+1, 0
		}
	}
	if n == 0 && r.i == len(r.parts) {
		return 0, io.EOF
	}
	return n, nil
}

// WriteTo writes the parts to w as they are: the HTTP client copies a
// body with it straight into the connection's buffer.
func (r *partsReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for ; r.i < len(r.parts); r.i, r.off = r.i+1, 0 {
		n, err := w.Write(r.parts[r.i][r.off:])
		total += int64(n)
		if err != nil {
			r.off += n
			return total, err
		}
	}
	return total, nil
}

func (r *partsReader) Close() error { return nil }

// rest is what is left to read, up to n bytes, as slices of the parts.
func (r *partsReader) rest(n int64) net.Buffers {
	var out net.Buffers
	for i, off := r.i, r.off; i < len(r.parts) && n > 0; i, off = i+1, 0 {
		p := r.parts[i][off:]
		if int64(len(p)) > n {
			p = p[:n]
		}
		if len(p) > 0 {
			out = append(out, p)
		}
		n -= int64(len(p))
	}
	return out
}

// advance marks n more bytes read.
func (r *partsReader) advance(n int64) {
	for n > 0 && r.i < len(r.parts) {
		c := min(n, int64(len(r.parts[r.i])-r.off))
		n -= c
		if r.off += int(c); r.off == len(r.parts[r.i]) {
			r.i, r.off = r.i+1, 0
		}
	}
}

// ParseError reads an error body in any of the shapes the services and
// OpenAI-compatible servers send:
//
//	{"type":"error","error":{"type":"not_found_error","message":"..."}}   Anthropic
//	{"error":{"message":"...","type":"invalid_request_error","code":...}}  OpenAI, vLLM
//	{"error":"model 'x' not found"}                                        Ollama
//	anything else                                                          quoted, cut to 300 bytes
//
// Status and RetryAfter are left for the caller.
func ParseError(provider string, body []byte) *llm.APIError {
	e := &llm.APIError{Provider: provider}
	var wire struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &wire) == nil && len(wire.Error) > 0 {
		var obj struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(wire.Error, &obj) == nil && (obj.Type != "" || obj.Message != ""):
			e.Type, e.Message = obj.Type, obj.Message
			return e
		case json.Unmarshal(wire.Error, &s) == nil:
			e.Message = s
			return e
		}
	}
	text := strings.TrimSpace(string(body))
	if len(text) > maxErrorText {
		cut := maxErrorText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	e.Message = text
	return e
}

// CloseOnCancel closes body as soon as ctx ends, so that a read blocked on
// a silent server returns at once whatever the HTTP transport does. Call
// the returned function when done with the body.
func CloseOnCancel(ctx context.Context, body io.Closer) (stop func() bool) {
	return context.AfterFunc(ctx, func() { body.Close() })
}

// ReadError turns an error from reading a response stream into the error
// Complete returns: ctx.Err() if ctx ended (the read failed because the body
// was closed), otherwise a Temporary error naming the provider.
func ReadError(ctx context.Context, provider string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	err = fmt.Errorf("%s: reading the response stream: %w", provider, err)
	if errors.Is(err, sse.ErrLineTooLong) {
		return err // the same request would get the same answer
	}
	return Temporary(err)
}
