package openai

import (
	"context"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/llm/internal/llmtest"
)

// testClient returns a Client of the fake API whose backoff sleeps are
// recorded in *sleeps instead of waited for, and whose jitter is zero.
func testClient(api *llmtest.Server, cfg Config, sleeps *[]time.Duration) *Client {
	cfg.APIKey = "sk-test"
	cfg.BaseURL = api.URL + "/v1/" // the trailing slash must not matter
	cfg.HTTPClient = api.Client()
	c := New(cfg)
	c.backoff.Rand = func() float64 { return 0 }
	c.backoff.Sleep = func(ctx context.Context, d time.Duration) error {
		*sleeps = append(*sleeps, d)
		return ctx.Err()
	}
	return c
}

// sseData builds an event stream of data lines, one event each.
func sseData(data ...string) string {
	var b strings.Builder
	for _, d := range data {
		b.WriteString("data: " + d + "\n\n")
	}
	return b.String()
}
