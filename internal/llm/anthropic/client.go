// Package anthropic is a client for the Anthropic Messages API with
// streaming, written on net/http and the shared sse reader rather than the
// official SDK, which costs minutes of cold build and megabytes of binary.
//
// Decisions beyond the shared rules in package llm:
//
//   - An "error" event in the middle of a stream (typically
//     overloaded_error) becomes an *llm.APIError whose Status is the one the
//     error type stands for (overloaded_error is 529, api_error 500, ...). It
//     is retried like the same HTTP status — but only while no content has
//     reached the callback; after that it is returned.
//   - A stream that ends without message_stop is a dropped connection: a
//     Temporary error, retried under the same rule.
//   - Thinking blocks are kept with their signatures and sent back
//     unchanged, as the API requires; thinking blocks without a signature
//     (from another provider or a script) cannot be verified by the API and
//     are dropped from requests, as are empty text blocks, which it rejects.
//   - Content block types this client does not know (server tools, for
//     example) are skipped, and so are unknown event types: the API
//     documents that new ones may appear.
//   - Usage.InputTokens counts the whole prompt, cache reads and writes
//     included, because callers use it to judge how full the context is.
package anthropic

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/internal/transport"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// Defaults for Config.
const (
	DefaultBaseURL    = "https://api.anthropic.com"
	DefaultVersion    = "2023-06-01"
	DefaultMaxRetries = 4
	DefaultMaxTokens  = 8192
)

const provider = "anthropic"

// Config configures a Client. Every field has a usable zero value except
// APIKey.
type Config struct {
	// APIKey is sent as x-api-key; callers read it from ANTHROPIC_API_KEY or
	// the config file. Empty sends no key (for a proxy that adds its own).
	APIKey string
	// BaseURL is the API root without /v1; default DefaultBaseURL. Callers
	// pass ANTHROPIC_BASE_URL here. A trailing slash is ignored.
	BaseURL string
	// HTTPClient sends the requests; default http.DefaultClient. Give it no
	// Timeout: a stream legitimately lasts minutes; cancel ctx instead.
	HTTPClient *http.Client
	// Version is the anthropic-version header; default DefaultVersion.
	Version string
	// MaxRetries is how many times a failed request is retried; 0 means
	// DefaultMaxRetries, a negative value means never.
	MaxRetries int
	// RetryBase is the first backoff delay, doubled on each retry up to 30
	// s; 0 means 500 ms.
	RetryBase time.Duration
}

// Client talks to the Messages API. It is safe for concurrent use.
type Client struct {
	cfg      Config
	endpoint string
	backoff  transport.Backoff
}

var _ llm.Provider = (*Client)(nil)

// New returns a Client for cfg, with defaults filled in.
func New(cfg Config) *Client {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.Version == "" {
		cfg.Version = DefaultVersion
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	return &Client{
		cfg:      cfg,
		endpoint: strings.TrimRight(cfg.BaseURL, "/") + "/v1/messages",
		backoff:  transport.Backoff{Base: cfg.RetryBase},
	}
}

// Complete streams one assistant turn; see llm.Provider and the package
// documentation for the retry rules.
func (c *Client) Complete(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	r := c.request(body(req))
	r.Header.Set("Accept", "text/event-stream")
	return transport.Stream(ctx, r, onEvent, func(rd *sse.Reader, emit func(llm.Event), readErr func(error) error) (*llm.Response, error) {
		s := newStream(emit)
		if err := s.read(rd, readErr); err != nil {
			return nil, err
		}
		return s.response(), nil
	})
}

// request is a POST of body to the Messages endpoint, with the API
// version, the key and the client's retry policy (Complete's, and
// WebSearch's).
func (c *Client) request(body [][]byte) transport.Request {
	header := http.Header{
		"Content-Type":      {"application/json"},
		"Anthropic-Version": {c.cfg.Version},
	}
	if c.cfg.APIKey != "" {
		header["X-Api-Key"] = []string{c.cfg.APIKey}
	}
	return transport.Request{
		Client: c.cfg.HTTPClient, Provider: provider, Endpoint: c.endpoint, Header: header, Body: body,
		MaxRetries: c.cfg.MaxRetries, Backoff: c.backoff,
	}
}

// ListModels asks GET /v1/models which models the key can use.
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	header := http.Header{"Anthropic-Version": {c.cfg.Version}}
	if c.cfg.APIKey != "" {
		header["X-Api-Key"] = []string{c.cfg.APIKey}
	}
	return llm.GetModelList(ctx, c.cfg.HTTPClient, strings.TrimRight(c.cfg.BaseURL, "/")+"/v1/models?limit=100", header)
}
