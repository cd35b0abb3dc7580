package llm

import (
	"fmt"
	"strings"
	"time"
)

// APIError is a non-retryable or finally-failed error reported by a model
// service: an HTTP status, or an error event inside a stream (Status is
// then the status the service's error type stands for, or 0).
type APIError struct {
	// Provider is "anthropic" or "openai"; it picks the advice in Error.
	Provider string
	// Status is the HTTP status code, or 0 when unknown.
	Status int
	// Type and Message are the service's own error type and text, e.g.
	// "overloaded_error" and "Overloaded".
	Type, Message string
	// RetryAfter is how long the service asked the client to wait, from a
	// retry-after or retry-after-ms header; 0 when it did not say.
	RetryAfter time.Duration
}

// Error names the provider, the status and the service's message, and says
// what to check.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(" API error")
	if e.Status != 0 {
		fmt.Fprintf(&b, " %d", e.Status)
	}
	if e.Type != "" {
		b.WriteString(" ")
		b.WriteString(e.Type)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if hint := e.hint(); hint != "" {
		b.WriteString(" (")
		b.WriteString(hint)
		b.WriteString(")")
	}
	return b.String()
}

// Retryable reports whether the status is one the providers retry.
func (e *APIError) Retryable() bool { return RetryableStatus(e.Status) }

// RetryableStatus reports whether an HTTP status means "try again later":
// 429, 500, 502, 503, 504 and Anthropic's 529 (overloaded).
func RetryableStatus(status int) bool {
	switch status {
	case 429, 500, 502, 503, 504, 529:
		return true
	}
	return false
}

// hint is the advice for the user: which setting to check, or what to do.
func (e *APIError) hint() string {
	keyEnv, urlEnv := EnvNames(e.Provider)
	switch {
	case e.Status == 401:
		return "check " + keyEnv + ": the key is missing, mistyped or revoked"
	case e.Status == 403:
		return "the key in " + keyEnv + " is not allowed to use this model or endpoint"
	case e.Status == 404:
		return "check the model name and " + urlEnv
	case e.Status == 413:
		return "the conversation is too large; run /compact or start a new session"
	case e.RetryAfter > time.Minute:
		return fmt.Sprintf("the service asks to wait %s before retrying", e.RetryAfter.Round(time.Second))
	case e.Status == 429:
		return "rate limited and out of retries; wait a little, or check your plan's limits"
	case e.Status >= 500:
		return "the service is having trouble; try again shortly"
	}
	return ""
}

// EnvNames returns the environment variables that hold the API key and the
// base URL of a provider, for error messages.
func EnvNames(provider string) (keyEnv, baseURLEnv string) {
	switch provider {
	case "anthropic":
		return "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"
	case "openai":
		return "OPENAI_API_KEY", "OPENAI_BASE_URL"
	}
	return "the API key", "the base URL"
}
