// Package llm holds the provider-neutral conversation types — messages,
// content blocks, tool definitions, stream events — and the Provider
// interface that every model backend implements.
//
// # Design
//
// The types mirror the Anthropic Messages API (content is a list of typed
// blocks; tool results are blocks in a user message) because that is the
// richer of the two wire shapes: the OpenAI chat-completions shape can be
// derived from it without loss, the other way round cannot (thinking
// signatures, tool results mixed with text). The JSON tags on Block and
// Message are the persisted session format, so they are snake_case, use
// omitempty, and must only ever grow.
//
// A Provider streams one assistant turn. Deltas go to an optional callback
// as they arrive, and the assembled Message comes back as the return value,
// so a caller that does not care about streaming (a test, compaction) can
// pass nil and still get the whole answer. Providers live in their own
// packages: anthropic and openai (hand-written clients on net/http sharing
// the sse reader) and script (a deterministic replay model).
//
// # Behaviour the providers share
//
//   - Retries: HTTP 429, 500, 502, 503, 504 and 529, and failures of the
//     connection itself, are retried with exponential backoff (base 500 ms,
//     doubling, capped at 30 s, up to a quarter taken off at random) up to
//     MaxRetries times. A Retry-After (seconds or HTTP date) or
//     retry-after-ms header replaces the computed delay; a server that asks
//     for more than a minute is not retried at all, and the APIError says how
//     long it asked for. Any other 4xx fails at once.
//   - An EventRetry is delivered before every backoff sleep, carrying the
//     error and the delay, so a UI can say "overloaded, retrying in 2s".
//   - A failure in the middle of a stream (an "error" event, a dropped
//     connection, a stream that ends early) is retried only while no content
//     event has been delivered for that turn. Once text has reached the
//     callback the error is returned instead, so a consumer can append
//     deltas without ever having to take any back.
//   - Cancelling ctx stops the request, the body read and the backoff sleep;
//     Complete then returns ctx.Err() (possibly wrapped — test with
//     errors.Is).
//   - A 2xx answer that is a JSON document instead of an event stream (a
//     server that ignores "stream": true, or a base URL pointing at the
//     wrong thing) is an error naming the URL and the base-URL variable.
//   - A tool call whose assembled input is not valid JSON fails the turn
//     with an error naming the tool; empty input becomes {}.
package llm
