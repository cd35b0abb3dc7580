package transport

import (
	"context"
	"net/http"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// Request is one streaming POST to a model API.
type Request struct {
	Client   *http.Client
	Provider string
	Endpoint string
	Header   http.Header
	// Body is the request body in parts, sent one after the other
	// without being joined (see Post).
	Body       [][]byte
	MaxRetries int
	Backoff    Backoff
}

// Stream posts r under the retry rules of Retry and hands each attempt's
// SSE body to read, which turns events into the response. readErr wraps a
// failure to read the body (a dropped connection, a truncated stream) so
// that it is retried while nothing has been emitted yet.
func Stream(ctx context.Context, r Request, onEvent func(llm.Event),
	read func(rd *sse.Reader, emit func(llm.Event), readErr func(error) error) (*llm.Response, error)) (*llm.Response, error) {
	var resp *llm.Response
	err := Retry(ctx, r.MaxRetries, r.Backoff, onEvent, func(emit func(llm.Event)) error {
		httpResp, err := Post(ctx, r.Client, r.Provider, r.Endpoint, r.Header, r.Body)
		if err != nil {
			return err
		}
		defer httpResp.Body.Close()
		defer CloseOnCancel(ctx, httpResp.Body)()
		resp, err = read(sse.NewReader(httpResp.Body), emit, func(err error) error {
			return ReadError(ctx, r.Provider, err)
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}
