package anthropic

import (
	"context"
	"time"

	"github.com/synaps-cli/synaps/internal/llm/internal/llmtest"
)

// testClient returns a Client of the fake API whose backoff sleeps are
// recorded in *sleeps instead of waited for, and whose jitter is zero.
func testClient(api *llmtest.Server, cfg Config, sleeps *[]time.Duration) *Client {
	cfg.APIKey = "test-key"
	cfg.BaseURL = api.URL + "/" // the trailing slash must not matter
	cfg.HTTPClient = api.Client()
	c := New(cfg)
	c.backoff.Rand = func() float64 { return 0 }
	c.backoff.Sleep = func(ctx context.Context, d time.Duration) error {
		*sleeps = append(*sleeps, d)
		return ctx.Err()
	}
	return c
}
