package transport

import (
	"context"
	"fmt"
	"io"

	"github.com/synaps-cli/synaps/internal/llm"
)

// MaxJSONAnswer bounds the body PostJSON reads: a web search's answer is
// kilobytes; a server that sends more is refused rather than read into
// memory without end.
const MaxJSONAnswer = 8 << 20

// PostJSON sends r as one request answered by one JSON document, not an
// event stream (a web search is such a request), and returns the
// answer's body. It retries under the same rules as Stream (Retry: the
// retryable statuses, Retry-After, a failed connection, a body cut
// short), and fails as Post does: an *llm.APIError for a status that is
// not 2xx, ctx.Err() when ctx ends. A body past MaxJSONAnswer is an
// error. Decoding the body is the caller's.
func PostJSON(ctx context.Context, r Request) ([]byte, error) {
	var data []byte
	err := Retry(ctx, r.MaxRetries, r.Backoff, nil, func(func(llm.Event)) error {
		resp, err := send(ctx, r.Client, r.Provider, r.Endpoint, r.Header, r.Body)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		defer CloseOnCancel(ctx, resp.Body)()
		data, err = io.ReadAll(io.LimitReader(resp.Body, MaxJSONAnswer+1))
		if err != nil {
			return ReadError(ctx, r.Provider, err)
		}
		if len(data) > MaxJSONAnswer {
			return fmt.Errorf("%s: %s answered with more than %d MiB; a JSON answer is expected to be far smaller", r.Provider, r.Endpoint, MaxJSONAnswer>>20)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return data, nil
}
