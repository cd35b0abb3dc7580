package transport

import (
	"context"
	"errors"

	"github.com/synaps-cli/synaps/internal/llm"
)

// temporary marks an error worth retrying that is not an HTTP status: a
// failed connection, a stream cut short, an error the service reported in
// the middle of a stream before anything was shown.
type temporary struct{ err error }

func (e *temporary) Error() string { return e.err.Error() }
func (e *temporary) Unwrap() error { return e.err }

// Temporary marks err as worth retrying. Its message is unchanged.
func Temporary(err error) error {
	if err == nil {
		return nil
	}
	return &temporary{err}
}

// Retryable reports whether err may succeed if the request is sent again:
// an *llm.APIError with a retryable status, or an error marked Temporary.
func Retryable(err error) bool {
	if apiErr, ok := errors.AsType[*llm.APIError](err); ok {
		return apiErr.Retryable()
	}
	_, ok := errors.AsType[*temporary](err)
	return ok
}

// Retry calls attempt until it succeeds, fails with an error that is not
// Retryable, has delivered a content event, or has failed maxRetries+1
// times. attempt delivers its events through emit, which forwards them to
// onEvent (may be nil) and notes whether content has been shown: after that
// a failure is returned, never retried, so no consumer has to take back
// text it already displayed. Before each backoff sleep Retry delivers an
// llm.EventRetry. If ctx ends, Retry returns ctx.Err().
func Retry(ctx context.Context, maxRetries int, b Backoff, onEvent func(llm.Event), attempt func(emit func(llm.Event)) error) error {
	emitted := false
	emit := func(ev llm.Event) {
		if ev.Type != llm.EventRetry {
			emitted = true
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}
	for try := 0; ; try++ {
		err := attempt(emit)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if emitted || try >= maxRetries || !Retryable(err) {
			return err
		}
		delay := b.Delay(try)
		if apiErr, ok := errors.AsType[*llm.APIError](err); ok && apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > MaxRetryAfter {
				return err
			}
			delay = apiErr.RetryAfter
		}
		if onEvent != nil {
			onEvent(llm.Event{Type: llm.EventRetry, Err: err, Delay: delay, Retry: try + 1, Retries: maxRetries})
		}
		if err := b.sleep(ctx, delay); err != nil {
			return err
		}
	}
}
