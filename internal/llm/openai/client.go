// Package openai is a client for OpenAI-compatible chat completions with
// streaming — OpenAI itself, Groq, Ollama, llama.cpp's server, vLLM and the
// rest — written on net/http and the shared sse reader rather than an SDK.
//
// Decisions beyond the shared rules in package llm:
//
//   - Thinking is not sent: thinking and redacted_thinking blocks are
//     dropped from requests. Reasoning that a server streams as
//     delta.reasoning_content or delta.reasoning (DeepSeek, vLLM, Ollama)
//     is delivered as EventThinking and kept as a thinking block without a
//     signature, so the UI can show it.
//   - A user message's tool_result blocks become "tool" messages, in order,
//     followed by one user message with its text blocks joined by "\n". A
//     tool result marked IsError is sent with "Error: " in front, since the
//     format has no error flag. Several text blocks of an assistant message
//     are joined the same way; its tool_use blocks become tool_calls.
//   - Request.MaxTokens is sent as max_completion_tokens to api.openai.com
//     (its reasoning models reject max_tokens) and as max_tokens elsewhere
//     (what older compatible servers understand); Config.MaxTokensField
//     overrides the choice. 0 sends neither.
//   - Tool calls are assembled by their index (id and name first, then the
//     arguments in fragments) and delivered as EventToolUse when the stream
//     ends, in index order. A call without an id gets "call_<index>"; a
//     server that sends no index gets one call per distinct id.
//   - Finish reasons are mapped to the Anthropic names (see
//     llm.Response.StopReason). A server that says "stop" after calling
//     tools (some local ones do) is reported as "tool_use".
//   - The stream ends at "data: [DONE]". A stream that ends without it is
//     accepted if a finish_reason arrived, and is otherwise a dropped
//     connection (retried while nothing has been shown).
//   - An {"error": ...} object inside the stream becomes an *llm.APIError
//     whose Status is its numeric code, if any (a "server_error" type
//     counts as 500), and is retried like that status while nothing has
//     been shown.
package openai

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/internal/transport"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// Defaults for Config.
const (
	DefaultBaseURL    = "https://api.openai.com/v1"
	DefaultMaxRetries = 4
)

const provider = "openai"

// Config configures a Client. Every field has a usable zero value.
type Config struct {
	// APIKey is sent as "Authorization: Bearer ..."; callers read it from
	// OPENAI_API_KEY or the config file. Empty sends no Authorization
	// header, which is what Ollama and llama.cpp expect.
	APIKey string
	// BaseURL is the API root including /v1; default DefaultBaseURL.
	// Callers pass OPENAI_BASE_URL here (e.g. http://localhost:11434/v1 for
	// Ollama). A trailing slash is ignored.
	BaseURL string
	// HTTPClient sends the requests; default http.DefaultClient. Give it no
	// Timeout: a stream legitimately lasts minutes; cancel ctx instead.
	HTTPClient *http.Client
	// MaxRetries is how many times a failed request is retried; 0 means
	// DefaultMaxRetries, a negative value means never.
	MaxRetries int
	// RetryBase is the first backoff delay, doubled on each retry up to 30
	// s; 0 means 500 ms.
	RetryBase time.Duration
	// MaxTokensField is the request field that carries Request.MaxTokens:
	// "max_tokens" or "max_completion_tokens". Empty picks by host: the
	// latter for api.openai.com, the former elsewhere.
	MaxTokensField string
}

// Client talks to a chat-completions endpoint. It is safe for concurrent
// use.
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
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.MaxTokensField == "" {
		cfg.MaxTokensField = "max_tokens"
		if u, err := url.Parse(cfg.BaseURL); err == nil && u.Hostname() == "api.openai.com" {
			cfg.MaxTokensField = "max_completion_tokens"
		}
	}
	return &Client{
		cfg:      cfg,
		endpoint: strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		backoff:  transport.Backoff{Base: cfg.RetryBase},
	}
}

// Complete streams one assistant turn; see llm.Provider and the package
// documentation.
func (c *Client) Complete(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	body, err := body(req, c.cfg.MaxTokensField)
	if err != nil {
		return nil, err
	}
	r := c.request(body)
	r.Header.Set("Accept", "text/event-stream")
	return transport.Stream(ctx, r, onEvent, func(rd *sse.Reader, emit func(llm.Event), readErr func(error) error) (*llm.Response, error) {
		s := newStream(emit)
		if err := s.read(rd, readErr); err != nil {
			return nil, err
		}
		return s.response()
	})
}

// request is a POST of body to the endpoint, with the key and the
// client's retry policy (Complete's, and WebSearch's).
func (c *Client) request(body [][]byte) transport.Request {
	header := http.Header{"Content-Type": {"application/json"}}
	if c.cfg.APIKey != "" {
		header["Authorization"] = []string{"Bearer " + c.cfg.APIKey}
	}
	return transport.Request{
		Client: c.cfg.HTTPClient, Provider: provider, Endpoint: c.endpoint, Header: header, Body: body,
		MaxRetries: c.cfg.MaxRetries, Backoff: c.backoff,
	}
}

// ListModels asks GET <base>/models which models the endpoint serves.
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	header := http.Header{}
	if c.cfg.APIKey != "" {
		header["Authorization"] = []string{"Bearer " + c.cfg.APIKey}
	}
	return llm.GetModelList(ctx, c.cfg.HTTPClient, strings.TrimRight(c.cfg.BaseURL, "/")+"/models", header)
}
