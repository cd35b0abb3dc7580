// Package transport is the HTTP plumbing the anthropic and openai clients
// share: posting a request, turning an error response into an
// *llm.APIError, and the retry loop with its backoff and Retry-After
// handling. What each service's stream means stays in its own package.
//
// The retry rules are documented for users in package llm ("Behaviour the
// providers share"); the code here is their single implementation.
package transport
